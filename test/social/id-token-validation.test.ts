/**
 * The ID token checks of OpenID Connect Core 1.0 section 3.1.3.7 as the social callback applies them
 * (modules/social/oidc-identity.ts): real RS256 signatures with jose, one refusal per rule (foreign key,
 * issuer, audience, azp with several audiences, nonce, expiry, missing sub), Microsoft's multi-tenant issuer
 * placeholder, and email_verified read strictly (Apple's "true" string counts, anything else does not).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { oidcIdentity, validateIdToken, type DiscoveredIssuer } from '../../server/modules/social/oidc-identity.ts';
import { UpstreamError } from '../../server/modules/social/upstream-http.ts';

const ISSUER = 'https://issuer.example';
const CLIENT = 'client-1';
const NONCE = 'nonce-abc';
const NOW = new Date('2026-11-23T10:00:00Z');
const clock = { now: () => NOW };

const { privateKey, publicKey } = await generateKeyPair('RS256');
const stranger = await generateKeyPair('RS256');
const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });

function discovered(issuer = ISSUER): DiscoveredIssuer {
  return { issuer, authorizationEndpoint: `${ISSUER}/auth`, tokenEndpoint: `${ISSUER}/token`, jwks };
}

async function idToken(claims: JWTPayload, key = privateKey): Promise<string> {
  const seconds = Math.floor(NOW.getTime() / 1000);
  return new SignJWT({ iss: ISSUER, aud: CLIENT, sub: 'user-1', nonce: NONCE, iat: seconds, exp: seconds + 300, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .sign(key);
}

const check = (token: string, issuer?: string) => validateIdToken(discovered(issuer), { idToken: token, clientId: CLIENT, nonce: NONCE, clock });

test('a well-formed ID token passes and yields its claims', async () => {
  const claims = await check(await idToken({ email: 'a@example.com', email_verified: true }));
  assert.equal(claims.sub, 'user-1');
  const identity = await oidcIdentity(discovered(), claims, undefined);
  assert.deepEqual([identity.subject, identity.email, identity.emailVerified], ['user-1', 'a@example.com', true]);
});

test('each broken rule is refused as an upstream failure', async () => {
  const seconds = Math.floor(NOW.getTime() / 1000);
  const cases: Array<[string, Promise<string>]> = [
    ['signed by another key', idToken({}, stranger.privateKey)],
    ['another issuer', idToken({ iss: 'https://evil.example' })],
    ['another audience', idToken({ aud: 'client-2' })],
    ['several audiences without azp', idToken({ aud: [CLIENT, 'client-2'] })],
    ['several audiences, azp another client', idToken({ aud: [CLIENT, 'client-2'], azp: 'client-2' })],
    ['another nonce', idToken({ nonce: 'replayed' })],
    ['no nonce', idToken({ nonce: undefined })],
    ['expired', idToken({ iat: seconds - 3600, exp: seconds - 600 })],
    ['no sub', idToken({ sub: undefined })],
  ];
  for (const [name, token] of cases) {
    await assert.rejects(check(await token), UpstreamError, name);
  }
  await assert.rejects(check('not.a.jwt'), UpstreamError);
});

test('several audiences pass when azp is this client', async () => {
  const claims = await check(await idToken({ aud: [CLIENT, 'client-2'], azp: CLIENT }));
  assert.equal(claims.azp, CLIENT);
});

test("a multi-tenant issuer is checked with the token's own tenant", async () => {
  const template = 'https://login.microsoftonline.com/{tenantid}/v2.0';
  const tenant = '9188040d-6c67-4c5b-b112-36a304b66dad';
  const ok = await idToken({ iss: `https://login.microsoftonline.com/${tenant}/v2.0`, tid: tenant });
  assert.equal((await check(ok, template)).tid, tenant);
  const mismatch = await idToken({ iss: 'https://login.microsoftonline.com/other/v2.0', tid: tenant });
  await assert.rejects(check(mismatch, template), UpstreamError);
  await assert.rejects(check(await idToken({ iss: `https://login.microsoftonline.com/${tenant}/v2.0` }), template), UpstreamError, 'no tid');
});

test('email_verified counts only when true or the string "true"', async () => {
  for (const [value, expected] of [[true, true], ['true', true], [false, false], ['false', false], [1, false], [undefined, false]] as const) {
    const claims = await check(await idToken({ email: 'a@example.com', email_verified: value }));
    assert.equal((await oidcIdentity(discovered(), claims, undefined)).emailVerified, expected, String(value));
  }
});
