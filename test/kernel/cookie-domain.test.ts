/**
 * The Domain of `cookie_session_domain` is the registrable domain of the --url host per the Public Suffix
 * List (RFC 6265 section 5.3 step 5), never a public suffix such as `co.uk`, and absent (host-only cookie)
 * for IP addresses, single-label hosts and hosts that are themselves a public suffix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cookieDomainOf } from '../../server/kernel/cookies.ts';
import { startServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';

test('ICANN suffixes of more than one label: the registrable domain, not the last two labels', () => {
  assert.equal(cookieDomainOf('https://auth.example.co.uk'), 'example.co.uk');
  assert.equal(cookieDomainOf('https://example.co.uk'), 'example.co.uk');
  assert.equal(cookieDomainOf('https://login.shop.example.com.au/base'), 'example.com.au');
});

test('deep hosts under a one-label suffix keep the registrable domain', () => {
  assert.equal(cookieDomainOf('https://a.b.example.com'), 'example.com');
  assert.equal(cookieDomainOf('https://example.com:8443'), 'example.com');
});

test('IP addresses, single labels and public suffixes get a host-only cookie', () => {
  for (const url of ['http://localhost:8080', 'http://intranet', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'https://co.uk', 'https://github.io']) {
    assert.equal(cookieDomainOf(url), undefined, url);
  }
});

test('private suffixes (github.io-style hosting) scope the cookie to the tenant, never the whole suffix', () => {
  assert.equal(cookieDomainOf('https://alice.github.io'), 'alice.github.io');
  assert.equal(cookieDomainOf('https://auth.alice.github.io'), 'alice.github.io');
  assert.equal(cookieDomainOf('https://myapp.herokuapp.com'), 'myapp.herokuapp.com');
});

test('over HTTP: signup on a .co.uk deployment sets Domain=example.co.uk', async () => {
  const server = await startServer(['--url', 'https://auth.example.co.uk']);
  try {
    const password = 'Domain-Test-Passw0rd!';
    const signup = await restClient(server).post('/v1/signup', { email: 'uk@example.com', password, confirm_password: password });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const domainCookie = signup.cookies.find((c) => c.startsWith('cookie_session_domain='));
    assert.match(domainCookie ?? '', /; Domain=example\.co\.uk;/);
  } finally {
    await server.close();
  }
});
