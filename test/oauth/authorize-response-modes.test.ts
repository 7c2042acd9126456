/**
 * The response modes of /authorize (OAuth 2.0 Multiple Response Type Encoding Practices; OAuth 2.0 Form
 * Post Response Mode; web_message of docs/sdk-compatibility.md) and the implicit token flow (RFC 6749
 * section 4.2.2; OpenID Connect Core section 3.2.2.5): where the fields go, that the pages run only their
 * nonce'd script, who may frame them, and that nothing is cached.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { CALLBACK, authorize, pkcePair, redirectParams, signedInBrowser, tokenIsValid, tokenRequest, type Browser } from './authorize-support.ts';

const ISSUER = 'http://127.0.0.1:8080';
const RP_ORIGIN = 'http://127.0.0.1:3000';

function codeParams(mode: string, challenge = pkcePair().challenge): Record<string, string> {
  return { client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', response_mode: mode, state: 'st<&">', code_challenge: challenge };
}

/** The nonce of `script-src 'nonce-…'` and the one inline script, which must carry it. */
function scriptNonce(res: Response, html: string): string {
  const csp = res.headers.get('content-security-policy') ?? '';
  const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
  assert.ok(nonce, `nonce in ${csp}`);
  assert.doesNotMatch(csp, /unsafe-inline/);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)];
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]![1], ` nonce="${nonce}"`);
  return nonce;
}

describe('/authorize response modes', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    browser = await signedInBrowser(server);
  });
  after(() => server.close());

  test('query: code, state and iss in the query of the redirect_uri', async () => {
    const { params } = redirectParams(await authorize(server, codeParams('query'), browser.cookie));
    assert.ok(params.get('code'));
    assert.equal(params.get('state'), 'st<&">');
    assert.equal(params.get('iss'), ISSUER);
  });

  test('fragment: the same fields in the fragment, none in the query', async () => {
    const res = await authorize(server, codeParams('fragment'), browser.cookie);
    const { url, params } = redirectParams(res, 'fragment');
    assert.equal(url.search, '');
    assert.ok(params.get('code'));
    assert.equal(params.get('state'), 'st<&">');
  });

  test('form_post: a self-submitting form to the redirect_uri, escaped, unframeable, not cached', async () => {
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, codeParams('form_post', challenge), browser.cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    const html = await res.text();
    scriptNonce(res, html);
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.match(res.headers.get('content-security-policy')!, new RegExp(`form-action ${RP_ORIGIN}`));
    assert.match(html, new RegExp(`<form method="post" action="${CALLBACK}">`));
    assert.ok(html.includes('name="state" value="st&lt;&amp;&quot;&gt;"'), 'state escaped');
    assert.ok(html.includes(`name="iss" value="${ISSUER}"`));
    const code = /name="code" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(code);
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(token.status, 200, JSON.stringify(token.body));
  });

  test('web_message: posts the response to window.parent of the redirect origin only; framed only by it', async () => {
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, codeParams('web_message', challenge), browser.cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), null);
    assert.match(res.headers.get('content-security-policy')!, new RegExp(`frame-ancestors ${RP_ORIGIN}$`));
    const html = await res.text();
    scriptNonce(res, html);
    const call = /window\.parent\.postMessage\((.*), ("[^"]+")\);<\/script>/.exec(html);
    assert.ok(call, html);
    assert.equal(JSON.parse(call[2]!), RP_ORIGIN);
    assert.ok(!call[1]!.includes('<'), 'no < inside the script');
    const message = JSON.parse(call[1]!) as { type: string; response: Record<string, string> };
    assert.equal(message.type, 'authorization_response');
    assert.equal(message.response.state, 'st<&">');
    assert.equal(message.response.iss, ISSUER);
    // The SDK's token request after web_message: no redirect_uri (the code never travelled in a URL).
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code: message.response.code!, code_verifier: verifier, client_id: CLIENT_ID });
    assert.equal(token.status, 200, JSON.stringify(token.body));
  });

  test('errors use the response mode too: web_message carries error and state', async () => {
    const { code_challenge: _c, ...noChallenge } = codeParams('web_message');
    const html = await (await authorize(server, noChallenge, browser.cookie)).text();
    const message = JSON.parse(/postMessage\((.*), "/.exec(html)![1]!) as { response: Record<string, string> };
    assert.equal(message.response.error, 'invalid_request');
    assert.equal(message.response.state, 'st<&">');
  });

  test('implicit flow: access and ID token in the fragment with the nonce, no refresh token, tokens valid', async () => {
    const res = await authorize(server, {
      client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'token', state: 's1', nonce: 'n-implicit',
      scope: 'openid email profile offline_access',
    }, browser.cookie);
    const { url, params } = redirectParams(res, 'fragment');
    assert.equal(url.search, '', 'tokens never in the query');
    assert.equal(params.get('token_type'), 'Bearer');
    assert.equal(params.get('expires_in'), '1800');
    assert.equal(params.get('state'), 's1');
    assert.equal(params.get('iss'), ISSUER);
    assert.equal(params.get('refresh_token'), null, 'RFC 6749 section 4.2.2: no refresh token');
    const id = decodeJwt(params.get('id_token')!);
    assert.equal(id.nonce, 'n-implicit');
    assert.equal(id.sub, browser.userId);
    assert.equal(await tokenIsValid(server, params.get('access_token')!), true);
  });

  test('the default response_type is token (docs/api-overview.md#http-endpoints-outside-v1), answered in the fragment', async () => {
    const res = await authorize(server, { client_id: CLIENT_ID, redirect_uri: CALLBACK, state: 's', nonce: 'n' }, browser.cookie);
    const { params } = redirectParams(res, 'fragment');
    assert.ok(params.get('access_token'));
  });
});
