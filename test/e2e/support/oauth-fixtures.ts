/**
 * The OAuth journeys' fixture: the login journeys' server (login-server.ts) plus, per worker, the
 * authorization-code relying party (oauth-relying-app.ts) registered over the admin API as a
 * consent_required client whose only redirect_uri is its /callback.
 *
 *   import { test, expect } from './support/oauth-fixtures.ts';
 */
import { generateKeyPairSync } from 'node:crypto';
import { test as base, expect, portcullisFixture, type Portcullis } from './fixtures.ts';
import { LOGIN_FLOW_FLAGS } from './login-server.ts';
import { startOAuthRelyingApp, type OAuthRelyingApp } from './oauth-relying-app.ts';

export const OAUTH_CLIENT_NAME = 'Example Notes';

/** Registers a client with the admin secret (docs/operations.md#create_client). */
export async function registerClient(
  portcullis: Portcullis,
  input: { name: string; redirect_uris: string[]; consent_required: boolean; allowed_scopes?: string[] },
): Promise<{ clientId: string; clientSecret: string }> {
  const response = await fetch(`${portcullis.url}/v1/admin/create_client`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portcullis.url, 'x-service-admin-secret': portcullis.adminSecret },
    body: JSON.stringify(input),
  });
  const answer = (await response.json()) as { client?: { client_id: string }; client_secret?: string };
  if (!response.ok || !answer.client || !answer.client_secret) throw new Error(`create_client ${response.status}: ${JSON.stringify(answer)}`);
  return { clientId: answer.client.client_id, clientSecret: answer.client_secret };
}

/**
 * ES256 signing, so the relying party can verify ID tokens with the public JWKS (the shared fixture signs
 * HS256 with the instance secret, which no relying party holds: OpenID Connect Core section 10.1 would have
 * the client's own secret be the key).
 */
const SIGNING_FLAGS = [
  '--jwt-type', 'ES256',
  '--jwt-private-key', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
];

export const test = base.extend<object, { portcullis: Portcullis; oauthApp: OAuthRelyingApp }>({
  // Email verification on, as login-helpers.ts createVerifiedAccount expects; ES256 for the ID tokens.
  portcullis: [portcullisFixture([...LOGIN_FLOW_FLAGS, ...SIGNING_FLAGS]), { scope: 'worker', timeout: 60_000 }],
  oauthApp: [
    async ({ portcullis }, use) => {
      const app = await startOAuthRelyingApp();
      const client = await registerClient(portcullis, {
        name: OAUTH_CLIENT_NAME,
        redirect_uris: [app.redirectUri],
        consent_required: true,
        allowed_scopes: ['openid', 'email', 'profile'],
      });
      app.configure(portcullis.url, client);
      await use(app);
      await app.close();
    },
    { scope: 'worker', timeout: 30_000 },
  ],
});

export { expect };
