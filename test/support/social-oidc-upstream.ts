/**
 * A real OpenID Connect provider on loopback (the `oidc-provider` package) acting as "google" for social
 * sign-in tests: discovery, authorization with PKCE, a token endpoint that authenticates the client with
 * client_secret_post, RS256 ID tokens carrying email and email_verified, and its JWKS. The login step is
 * finished by this harness for whichever account the test named with `signInAs` (no HTML form to drive);
 * consent is granted automatically.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface OidcUpstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by subject. */
  accounts: Map<string, UpstreamAccount>;
  /** The subject the next authorization signs in, or 'deny' to answer error=access_denied. */
  signInAs(subject: string): void;
  /** Flags that point the server's google provider at this upstream. */
  flags(): string[];
  close(): Promise<void>;
}

export async function startOidcUpstream(options: { redirectUri: string; provider?: string }): Promise<OidcUpstream> {
  const name = options.provider ?? 'google';
  const accounts = new Map<string, UpstreamAccount>();
  let next = '';
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'upstream-key-1', alg: 'RS256', use: 'sig' };
  const clientId = `${name}-client`;
  const clientSecret = `${name}-client-secret-0123456789`;

  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [options.redirectUri],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['upstream-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    scopes: ['openid', 'email', 'profile', 'name'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    // Google puts email and email_verified in the ID token; oidc-provider does so only with this off.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // Google takes PKCE; Apple documents none, so the "apple" upstream does not demand it.
    pkce: { required: () => name !== 'apple' },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile name');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();

  handler = (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      await provider.interactionDetails(req, res);
      const result = next === 'deny'
        ? { error: 'access_denied', error_description: 'the user said no' }
        : { login: { accountId: next } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    })().catch((err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAs(subject) {
      next = subject;
    },
    flags: () => [`--${name}-client-id`, clientId, `--${name}-client-secret`, clientSecret, `--${name}-base-url`, issuer],
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
