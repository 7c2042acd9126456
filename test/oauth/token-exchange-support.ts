/**
 * A user's access token addressed to a registered client, the subject token an exchanging client may present
 * (modules/oauth/token-exchange/exchange.ts: its aud must name the client): the signed-in browser runs the code
 * flow with PKCE for that client, which redeems the code with its secret. The client must list CALLBACK among
 * its redirect_uris.
 */
import assert from 'node:assert/strict';
import type { TestServer } from '../support/app.ts';
import { CALLBACK, authorize, basicAuth, codeFrom, pkcePair, tokenRequest } from './authorize-support.ts';

export async function userTokenFor(server: TestServer, cookie: string, client: { clientId: string; secret: string }, scope = 'openid email profile'): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const res = await authorize(server, {
    client_id: client.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'x', code_challenge: challenge, code_challenge_method: 'S256', scope,
  }, cookie);
  const code = await codeFrom(res, 'x');
  const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK }, basicAuth(client.clientId, client.secret));
  assert.equal(token.status, 200, JSON.stringify(token.body));
  return token.body.access_token as string;
}
