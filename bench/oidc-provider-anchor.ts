/**
 * The anchor of bench/token.ts: `oidc-provider` 9 (the reference OpenID provider for Node) configured as our
 * server is for the measurement: one client with the client_credentials grant and client_secret_basic, the
 * same client_id, secret and allowed scope, and JWT access tokens signed ES256 (resource indicators with a
 * default resource whose accessTokenFormat is jwt: oidc-provider's only way to JWT access tokens). Its
 * default in-memory adapter; no logger. Run as a child process of the same Node binary; prints
 * `listening <port>` once ready.
 *
 * Usage: node bench/oidc-provider-anchor.ts (client as JSON {client_id, client_secret, scope} in the
 * OIDC_ANCHOR_CLIENT environment variable)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const RESOURCE = 'urn:portcullis:bench:api';

async function main(): Promise<void> {
  const client = JSON.parse(process.env.OIDC_ANCHOR_CLIENT ?? '{}') as { client_id: string; client_secret: string; scope: string };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'bench-es256', alg: 'ES256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [{
      client_id: client.client_id,
      client_secret: client.client_secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      // Its only key is ES256; the default RS256 would make the client metadata invalid.
      id_token_signed_response_alg: 'ES256',
      scope: client.scope,
    }],
    jwks: { keys: [jwk] },
    scopes: client.scope.split(' '),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: client.scope,
          audience: client.client_id,
          accessTokenTTL: 1800,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback());
  console.log(`listening ${(server.address() as AddressInfo).port}`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
