/**
 * The organization IdP client over real loopback HTTP (modules/org-sso/idp-client.ts, guarded-http.ts):
 * the ID token rules of OpenID Connect Core 1.0 section 3.1.3.7, one refusal per rule (foreign key,
 * issuer, audience, azp, nonce, expiry, missing sub); discovery whose issuer is not the configured one
 * (Discovery section 4.3); redirects not followed; oversized answers cut off; and the SSRF guard, which
 * refuses http, loopback literals, `localhost` and names that resolve to loopback unless private
 * addresses are allowed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { IdpClient, IdpError, type IdpSettings } from '../../server/modules/org-sso/index.ts';
import { idpRequest } from '../../server/modules/org-sso/guarded-http.ts';
import { isRefusedAddress } from '../../server/modules/webhooks/index.ts';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';

const CLIENT = 'org-client';
const NONCE = 'nonce-123';
const clock = { now: () => new Date() };
const { privateKey, publicKey } = await generateKeyPair('RS256');
const stranger = await generateKeyPair('RS256');

describe('the organization IdP client', () => {
  let server: Server;
  let issuer: string;
  /** What the token endpoint answers next. */
  let tokenAnswer: () => Promise<{ status: number; body: unknown }> = async () => ({ status: 500, body: {} });
  let discoveryIssuer: (() => string) | undefined;
  let form: URLSearchParams | undefined;

  before(async () => {
    server = createServer((req, res) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (req.url === '/.well-known/openid-configuration') {
        return send(200, { issuer: discoveryIssuer?.() ?? issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
      }
      if (req.url === '/moved/.well-known/openid-configuration') return send(302, {}, { location: `${issuer}/.well-known/openid-configuration` });
      if (req.url === '/huge/.well-known/openid-configuration') return send(200, `{"pad":"${'x'.repeat(1024 * 1024 + 10)}"}`);
      if (req.url === '/jwks') {
        void exportJWK(publicKey).then((jwk) => send(200, { keys: [{ ...jwk, kid: 'k1', alg: 'RS256', use: 'sig' }] }));
        return;
      }
      if (req.url === '/token' && req.method === 'POST') {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          form = new URLSearchParams(body);
          void tokenAnswer().then(({ status, body: answer }) => send(status, answer));
        });
        return;
      }
      send(404, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const settings = (overrides: Partial<IdpSettings> = {}): IdpSettings => ({ issuer, clientId: CLIENT, clientSecret: 's3cret', scopes: ['openid', 'email'], allowPrivate: true, ...overrides });

  async function idToken(claims: JWTPayload, key = privateKey): Promise<string> {
    const seconds = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: issuer, aud: CLIENT, sub: 'user-1', nonce: NONCE, iat: seconds, exp: seconds + 300, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(key);
  }

  const identify = (client = new IdpClient(), s = settings()) => client.identify(s, { code: 'c', redirectUri: 'http://127.0.0.1:8080/sso/oidc/callback', verifier: 'v'.repeat(43), nonce: NONCE, clock });

  test('a well-formed ID token yields the identity; the exchange sends the code, PKCE verifier and client credentials', async () => {
    tokenAnswer = async () => ({ status: 200, body: { access_token: 'at', token_type: 'Bearer', id_token: await idToken({ email: 'a@example.com', email_verified: true, given_name: 'A' }) } });
    const identity = await identify();
    assert.deepEqual([identity.subject, identity.email, identity.emailVerified, identity.givenName], ['user-1', 'a@example.com', true, 'A']);
    assert.equal(form!.get('grant_type'), 'authorization_code');
    assert.equal(form!.get('code_verifier'), 'v'.repeat(43));
    assert.equal(form!.get('client_id'), CLIENT);
    assert.equal(form!.get('client_secret'), 's3cret');
  });

  test('email_verified counts only when asserted true', async () => {
    for (const [value, expected] of [[false, false], ['yes', false], [undefined, false], ['true', true]] as const) {
      tokenAnswer = async () => ({ status: 200, body: { id_token: await idToken({ email: 'a@example.com', email_verified: value }) } });
      assert.equal((await identify()).emailVerified, expected, String(value));
    }
  });

  test('each broken ID token rule is refused as an IdP failure', async () => {
    const seconds = Math.floor(Date.now() / 1000);
    const cases: Array<[string, () => Promise<string>]> = [
      ['signed by another key', () => idToken({}, stranger.privateKey)],
      ['another issuer', () => idToken({ iss: 'https://evil.example' })],
      ['another audience', () => idToken({ aud: 'someone-else' })],
      ['several audiences without azp', () => idToken({ aud: [CLIENT, 'other'] })],
      ['azp of another client', () => idToken({ azp: 'other' })],
      ['another nonce', () => idToken({ nonce: 'replayed' })],
      ['no nonce', () => idToken({ nonce: undefined })],
      ['expired', () => idToken({ iat: seconds - 3600, exp: seconds - 600 })],
      ['no sub', () => idToken({ sub: undefined })],
      ['not a JWT', async () => 'not.a.jwt'],
    ];
    for (const [name, token] of cases) {
      tokenAnswer = async () => ({ status: 200, body: { id_token: await token() } });
      await assert.rejects(identify(), IdpError, name);
    }
    tokenAnswer = async () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'secret-looking detail' } });
    await assert.rejects(identify(), (err: Error) => err instanceof IdpError && /invalid_grant/.test(err.message) && !/secret-looking/.test(err.message));
    tokenAnswer = async () => ({ status: 200, body: { access_token: 'only' } });
    await assert.rejects(identify(), IdpError, 'no id_token');
  });

  test('a discovery document naming another issuer, a redirect, or an oversized answer is refused', async () => {
    discoveryIssuer = () => 'https://accounts.google.com';
    await assert.rejects(new IdpClient().authorizeUrl(settings(), { redirectUri: 'x', state: 's', codeChallenge: 'c', nonce: 'n' }), /issuer does not match/);
    discoveryIssuer = undefined;
    await assert.rejects(new IdpClient().authorizeUrl(settings({ issuer: `${issuer}/moved` }), { redirectUri: 'x', state: 's', codeChallenge: 'c', nonce: 'n' }), /answered 302/);
    await assert.rejects(new IdpClient().authorizeUrl(settings({ issuer: `${issuer}/huge` }), { redirectUri: 'x', state: 's', codeChallenge: 'c', nonce: 'n' }), /larger than/);
    const url = new URL(await new IdpClient().authorizeUrl(settings(), { redirectUri: 'r', state: 's', codeChallenge: 'c', nonce: 'n', loginHint: 'a@b.c' }));
    assert.equal(url.origin + url.pathname, `${issuer}/auth`);
    assert.equal(url.searchParams.get('login_hint'), 'a@b.c');
    assert.equal(url.searchParams.get('scope'), 'openid email');
  });

  test('without the allow flag, http, loopback literals, localhost and names resolving to loopback are never dialled', async () => {
    let hits = 0;
    const counter = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const port = (counter.address() as AddressInfo).port;
    try {
      for (const url of [
        `http://127.0.0.1:${port}/x`, `https://127.0.0.1:${port}/x`, `https://localhost:${port}/x`, `https://[::1]:${port}/x`,
        `https://[::ffff:127.0.0.1]:${port}/x`, `https://169.254.169.254/latest/meta-data`, `https://10.1.2.3/x`,
      ]) {
        await assert.rejects(idpRequest(url, { allowPrivate: false }), (err: Error) => err instanceof IdpError && /must use https|internal address/.test(err.message), url);
      }
      // The machine's own name resolves to a loopback or private address on a workstation or in a container
      // (/etc/hosts): refused after resolution, which is the path a rebinding name takes.
      const own = await lookup(hostname(), { all: true });
      assert.ok(own.some((a) => isRefusedAddress(a.address)), `${hostname()} resolves to an internal address here`);
      await assert.rejects(idpRequest(`https://${hostname()}:${port}/x`, { allowPrivate: false }), /resolves to an internal address/);
      assert.equal(hits, 0, 'no request reached the loopback server');
      await idpRequest(`http://127.0.0.1:${port}/x`, { allowPrivate: true });
      assert.equal(hits, 1, 'the flag lets it through');
    } finally {
      counter.closeAllConnections();
      await new Promise<void>((resolve) => counter.close(() => resolve()));
    }
  });
});
