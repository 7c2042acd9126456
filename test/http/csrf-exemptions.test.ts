/**
 * The CSRF exemptions come from the module endpoints' own rules (ops/endpoint.ts CsrfRule) and are matched
 * by method and path as declared: `:name` is one segment, a final `/*` the prefix and anything below. Checked
 * through the server's Origin rule itself, so a route that lost its exemption, or a path that gained one,
 * fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csrfExemptionMatcher, pathPattern } from '../../server/transports/http/csrf-exemptions.ts';
import { csrfRule } from '../../server/transports/http/security.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { baseFlags } from '../support/app.ts';

test('a declared path becomes a pattern: a parameter is exactly one non-empty segment, a final /* also the bare prefix', () => {
  const saml = pathPattern('/saml/:org/sso');
  assert.ok(saml.test('/saml/acme/sso'));
  assert.ok(!saml.test('/saml//sso'));
  assert.ok(!saml.test('/saml/a/b/sso'));
  assert.ok(!saml.test('/saml/acme/sso/extra'));
  const scim = pathPattern('/scim/v2/*');
  for (const path of ['/scim/v2', '/scim/v2/', '/scim/v2/Users/1']) assert.ok(scim.test(path), path);
  for (const path of ['/scim/v20', '/scim/v2x/Users']) assert.ok(!scim.test(path), path);
  // Characters special in a regular expression are taken literally.
  assert.ok(!pathPattern('/a.b/:id').test('/aXb/1'));
});

test('an exemption holds only for the methods its endpoint serves', () => {
  const matches = csrfExemptionMatcher([{ methods: ['POST'], path: '/oauth/token' }, { methods: ['POST'], path: '/sso/saml/:org/acs' }]);
  assert.ok(matches('POST', '/oauth/token'));
  assert.ok(!matches('DELETE', '/oauth/token'));
  assert.ok(matches('POST', '/sso/saml/acme/acs'));
  assert.ok(!matches('PUT', '/sso/saml/acme/acs'));
  assert.ok(!matches('POST', '/sso/saml/acme/metadata'));
  // A pattern whose first segment is a parameter is tried for every path.
  const anyFirst = csrfExemptionMatcher([{ methods: ['POST'], path: '/:tenant/hook' }]);
  assert.ok(anyFirst('POST', '/acme/hook'));
  assert.ok(!anyFirst('POST', '/acme/other'));
});

test("the server's Origin rule exempts exactly the cross-site posts the endpoints declare", async () => {
  const config = parseConfig([...baseFlags('/nonexistent'), '--url', 'https://auth.example.com']);
  const rule = csrfRule(config);
  const refusal = (method: string, url: string) => rule({ method, url, headers: {} } as never);
  const exempt: [string, string][] = [
    ['POST', '/oauth/token'],
    ['POST', '/authorize'],
    ['POST', '/logout'],
    ['POST', '/oauth_callback/apple'],
    ['POST', '/sso/saml/acme/acs'],
    ['POST', '/saml/acme/sso'],
    ['POST', '/saml/acme/slo?SAMLRequest=x'],
    ['POST', '/scim/v2/Users'],
    ['PATCH', '/scim/v2/Users/42'],
    ['DELETE', '/scim/v2/Groups/7'],
    ['POST', '/scim/v2'],
  ];
  for (const [method, url] of exempt) assert.equal(refusal(method, url), undefined, `${method} ${url}`);
  const guarded: [string, string][] = [
    ['POST', '/v1/login'],
    ['POST', '/graphql'],
    ['POST', '/saml/acme/metadata'],
    ['POST', '/saml/a/b/sso'],
    ['POST', '/sso/acme/start'],
    ['POST', '/scim/v20/Users'],
    ['PUT', '/oauth/token'],
  ];
  for (const [method, url] of guarded) assert.match(refusal(method, url) ?? '', /CSRF/, `${method} ${url}`);
});
