import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cookieDomainOf, sessionCookies, mfaCookie, presentedSession } from '../../server/kernel/cookies.ts';
import { serializeCookie, parseCookieHeader } from '../../server/kernel/effects.ts';
import { parseConfig } from '../../server/config/parse.ts';

const flags = (url: string, extra: string[] = []) =>
  parseConfig(['--database-url', 'x.db', '--url', url, '--client-id', 'a', '--client-secret', 'b', '--admin-secret', 's', '--jwt-secret', 'k'.repeat(32), ...extra]);

test('the domain cookie is scoped to the parent domain of --url, never to an IP or localhost', () => {
  assert.equal(cookieDomainOf('https://auth.example.com'), 'example.com');
  assert.equal(cookieDomainOf('https://example.com:8443/base'), 'example.com');
  assert.equal(cookieDomainOf('http://127.0.0.1:8080'), undefined);
  assert.equal(cookieDomainOf('http://[::1]:8080'), undefined);
  assert.equal(cookieDomainOf('http://localhost:8080'), undefined);
});

test('session cookies are HttpOnly, SameSite=None and Secure by default', () => {
  const [host, domain] = sessionCookies(flags('https://auth.example.com'), 'tok');
  assert.equal(serializeCookie(host!), 'cookie_session=tok; Path=/; Max-Age=86400; HttpOnly; Secure; SameSite=None');
  assert.equal(serializeCookie(domain!), 'cookie_session_domain=tok; Path=/; Max-Age=86400; Domain=example.com; HttpOnly; Secure; SameSite=None');
});

test('without --app-cookie-secure the cookies fall back to SameSite=Lax', () => {
  const cookie = mfaCookie(flags('http://localhost:8080', ['--app-cookie-secure=false']), 'm');
  assert.equal(serializeCookie(cookie), 'mfa=m; Path=/; Max-Age=300; HttpOnly; SameSite=Lax');
});

test('the presented session is read from either cookie of the pair', () => {
  assert.equal(presentedSession(parseCookieHeader('a=1; cookie_session_domain=d%2Fx')), 'd/x');
  assert.equal(presentedSession(parseCookieHeader('cookie_session=h; cookie_session_domain=d')), 'h');
  assert.equal(presentedSession(parseCookieHeader('other=1')), undefined);
});

test('setting a cookie twice in one response leaves one Set-Cookie, the last one', async () => {
  const { ResponseEffects } = await import('../../server/kernel/effects.ts');
  const effects = new ResponseEffects();
  const config = flags('https://auth.example.com');
  for (const c of sessionCookies(config, '', 0)) effects.setCookie(c);
  for (const c of sessionCookies(config, 'fresh')) effects.setCookie(c);
  assert.deepEqual(effects.cookies.map((c) => `${c.name}=${c.value}`), ['cookie_session=fresh', 'cookie_session_domain=fresh']);
});
