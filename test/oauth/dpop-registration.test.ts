/**
 * dpop_bound_access_tokens (RFC 9449 section 5.2), client metadata of dynamic registration (RFC 7591): a
 * client registered with it true gets invalid_dpop_proof for a token request without a proof, and bound
 * tokens with one; the registration answer echoes it; a value that is not a boolean is
 * invalid_client_metadata; a client registered without it keeps bearer tokens available.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import type { TestServer } from '../support/app.ts';
import { signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { pkcePair } from './authorize-support.ts';
import { dpopKey, dpopProof } from './dpop-support.ts';

const CALLBACK = 'http://127.0.0.1:3999/callback';

describe('dpop_bound_access_tokens at dynamic registration', () => {
  let server: TestServer;
  before(async () => {
    server = await startOidcServer(['--dynamic-registration', 'open']);
  });
  after(() => server.close());

  async function register(metadata: Record<string, unknown>) {
    const res = await fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  /** A code of a public client for a signed-in user, and its verifier. */
  async function codeFor(clientId: string) {
    const browser = await signUpAndLogIn(server);
    const { verifier, challenge } = pkcePair();
    const url = `${server.baseUrl}/authorize?${new URLSearchParams({
      client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: challenge, scope: 'openid email',
    })}`;
    const first = await fetch(url, { redirect: 'manual', headers: { cookie: browser.cookie } });
    // A self-registered client is third-party: the user consents first (RFC 7591 section 5).
    const consent = new URL(first.headers.get('location')!, server.baseUrl);
    const decision = await fetch(`${server.baseUrl}/v1/decide_authorization_request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: browser.cookie, origin: server.baseUrl },
      body: JSON.stringify({ request_id: consent.searchParams.get('request'), approve: true }),
    });
    const decided = (await decision.json()) as { redirect_uri: string };
    const res = await fetch(decided.redirect_uri, { redirect: 'manual', headers: { cookie: browser.cookie } });
    const code = new URL(res.headers.get('location')!).searchParams.get('code');
    assert.ok(code, `a code: ${res.headers.get('location')}`);
    return { code, verifier };
  }

  async function redeem(clientId: string, code: string, verifier: string, proof?: string) {
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(proof ? { dpop: proof } : {}) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: clientId }).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  test('a client registered with dpop_bound_access_tokens must send a proof at the token endpoint', async () => {
    const registered = await register({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    assert.equal(registered.body.dpop_bound_access_tokens, true);
    const clientId = registered.body.client_id as string;
    const bare = await codeFor(clientId);
    const refused = await redeem(clientId, bare.code, bare.verifier);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_dpop_proof');
    const key = await dpopKey();
    const proven = await codeFor(clientId);
    const granted = await redeem(clientId, proven.code, proven.verifier, await dpopProof(key, { htu: `${server.baseUrl}/oauth/token` }));
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(granted.body.access_token).cnf, { jkt: key.jkt });
  });

  test('a client registered without it may still get bearer tokens; a non-boolean value is refused', async () => {
    const plain = await register({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
    assert.equal(plain.body.dpop_bound_access_tokens, undefined);
    const { code, verifier } = await codeFor(plain.body.client_id);
    assert.equal((await redeem(plain.body.client_id, code, verifier)).body.token_type, 'Bearer');
    const bad = await register({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', dpop_bound_access_tokens: 'yes' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_client_metadata');
    assert.match(bad.body.error_description, /dpop_bound_access_tokens/);
  });
});
