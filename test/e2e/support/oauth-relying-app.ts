/**
 * A relying party of the authorization code flow on its own loopback port, written as an integrator would
 * without an SDK (RFC 6749 section 4.1 with PKCE, RFC 7636; OpenID Connect Core section 3.1):
 *
 * - GET /: makes a state, a nonce and a PKCE verifier on this server (S256 challenge), remembers them, and
 *   shows a "Sign in" link (#sign-in) to the server's /authorize for its registered client.
 * - GET /callback: refuses an unknown state; shows an authorization error (#error, #error-description)
 *   as the server returned it; otherwise exchanges the code at /oauth/token from this server (client
 *   authentication client_secret_basic, the verifier, the same redirect_uri), verifies the ID token against
 *   the server's JWKS (iss from discovery, aud = client id, nonce, exp) and shows its email in #who.
 *
 * Every outcome is also kept in `results` so a test can assert on what the server answered, not only on
 * what the page shows.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface CallbackResult {
  state: string;
  /** Query parameters the browser arrived with. */
  query: Record<string, string>;
  /** The token endpoint's status and JSON answer, when a code was exchanged. */
  tokenStatus?: number;
  tokenAnswer?: Record<string, unknown>;
  /** The verified ID token claims. */
  idToken?: JWTPayload;
  error?: string;
}

export interface OAuthRelyingApp {
  readonly origin: string;
  readonly redirectUri: string;
  readonly results: CallbackResult[];
  /** The server to use and the client this application is registered as. */
  configure(serverUrl: string, client: OAuthClientCredentials): void;
  /** The state of the newest sign-in started from GET /. */
  lastState(): string | undefined;
  close(): Promise<void>;
}

interface PendingSignIn {
  nonce: string;
  verifier: string;
  scope: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

function field(id: string, text: string | undefined): string {
  return `<p id="${id}">${escapeHtml(text ?? '')}</p>`;
}

export async function startOAuthRelyingApp(): Promise<OAuthRelyingApp> {
  let serverUrl = '';
  let client: OAuthClientCredentials = { clientId: '', clientSecret: '' };
  const pending = new Map<string, PendingSignIn>();
  const results: CallbackResult[] = [];
  let newestState: string | undefined;
  let origin = '';
  let discovered: { issuer: string; jwks: ReturnType<typeof createRemoteJWKSet>; tokenEndpoint: string } | undefined;

  async function discovery() {
    if (!discovered) {
      const response = await fetch(`${serverUrl}/.well-known/openid-configuration`);
      const document = (await response.json()) as { issuer: string; jwks_uri: string; token_endpoint: string };
      discovered = { issuer: document.issuer, jwks: createRemoteJWKSet(new URL(document.jwks_uri)), tokenEndpoint: document.token_endpoint };
    }
    return discovered;
  }

  function start(response: ServerResponse, prompt: string | null) {
    const state = randomBytes(16).toString('base64url');
    const verifier = randomBytes(32).toString('base64url'); // 43 characters of the unreserved set (RFC 7636 4.1)
    const nonce = randomBytes(16).toString('base64url');
    const scope = 'openid email profile';
    pending.set(state, { nonce, verifier, scope });
    newestState = state;
    const authorize = new URL(`${serverUrl}/authorize`);
    authorize.search = new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: `${origin}/callback`,
      response_type: 'code',
      scope,
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(prompt ? { prompt } : {}),
    }).toString();
    response.end(page('Example OAuth app', `<h1>Example OAuth app</h1><a id="sign-in" href="${escapeHtml(authorize.toString())}">Sign in</a>`));
  }

  async function callback(request: URL, response: ServerResponse) {
    const query = Object.fromEntries(request.searchParams);
    const state = query.state ?? '';
    const result: CallbackResult = { state, query };
    results.push(result);
    const signIn = pending.get(state);
    pending.delete(state); // one use per state
    if (!signIn) {
      result.error = 'unknown state';
      response.end(page('Callback', field('error', result.error)));
      return;
    }
    if (query.error) {
      result.error = query.error;
      response.end(page('Callback', `<h1>Not signed in</h1>${field('error', query.error)}${field('error-description', query.error_description)}`));
      return;
    }
    try {
      const { issuer, jwks, tokenEndpoint } = await discovery();
      // RFC 9207: the authorization response names its issuer; a mix-up would show a different one.
      if (query.iss !== undefined && query.iss !== issuer) throw new Error(`iss ${query.iss} is not ${issuer}`);
      const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64');
      const token = await fetch(tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}`, accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: query.code ?? '',
          redirect_uri: `${origin}/callback`,
          code_verifier: signIn.verifier,
        }),
      });
      result.tokenStatus = token.status;
      result.tokenAnswer = (await token.json()) as Record<string, unknown>;
      if (!token.ok) throw new Error(`token endpoint ${token.status}: ${JSON.stringify(result.tokenAnswer)}`);
      const idToken = result.tokenAnswer.id_token;
      if (typeof idToken !== 'string') throw new Error('no id_token in the token response');
      const { payload } = await jwtVerify(idToken, jwks, { issuer, audience: client.clientId });
      if (payload.nonce !== signIn.nonce) throw new Error('the ID token carries another nonce');
      result.idToken = payload;
      response.end(page('Example OAuth app: signed in', `<h1>Signed in</h1>${field('who', String(payload.email ?? ''))}`));
    } catch (err) {
      result.error = (err as Error).message;
      response.end(page('Callback', field('error', result.error)));
    }
  }

  const http: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://app.invalid');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.setHeader('cache-control', 'no-store');
    if (url.pathname === '/') return start(response, url.searchParams.get('prompt'));
    if (url.pathname === '/callback') {
      callback(url, response).catch((err: unknown) => {
        response.statusCode = 500;
        response.end(String(err));
      });
      return;
    }
    response.statusCode = 404;
    response.end(page('Not found', 'not found'));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    redirectUri: `${origin}/callback`,
    results,
    configure(url, credentials) {
      serverUrl = url;
      client = credentials;
      discovered = undefined;
    },
    lastState: () => newestState,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}
