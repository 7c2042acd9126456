/**
 * A small plain OAuth 2.0 server on loopback acting as "github" for social sign-in tests, with GitHub's
 * paths and shapes: /login/oauth/authorize (checks client and redirect_uri, honours PKCE S256),
 * /login/oauth/access_token (client_secret_post, single-use codes bound to redirect_uri and the PKCE
 * challenge; refusals in GitHub's own 200-with-error shape), /user and /user/emails behind a bearer token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubAccount {
  id: number;
  login: string;
  name?: string;
  email: string;
  verified: boolean;
}

export interface TokenRequestSeen {
  form: Record<string, string>;
  accepted: boolean;
}

export interface Oauth2Upstream {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, GithubAccount>;
  /** The account (by login) the next authorization signs in, or 'deny' to answer error=access_denied. */
  signInAs(login: string): void;
  tokenRequests: TokenRequestSeen[];
  flags(): string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startOauth2Upstream(options: { redirectUri: string }): Promise<Oauth2Upstream> {
  const clientId = 'github-client';
  const clientSecret = 'github-client-secret-0123456789';
  const accounts = new Map<string, GithubAccount>();
  const codes = new Map<string, { login: string; redirectUri: string; challenge?: string }>();
  const tokens = new Map<string, string>();
  const tokenRequests: TokenRequestSeen[] = [];
  let next = '';

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, 'http://upstream');
      if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        const q = url.searchParams;
        if (q.get('client_id') !== clientId || q.get('redirect_uri') !== options.redirectUri) return json(res, 400, { error: 'redirect_uri_mismatch' });
        const back = new URL(options.redirectUri);
        back.searchParams.set('state', q.get('state') ?? '');
        if (next === 'deny') {
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = randomBytes(16).toString('hex');
          codes.set(code, { login: next, redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge')! : undefined });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? '');
        const verifierOk = grant?.challenge === undefined || createHash('sha256').update(form.code_verifier ?? '').digest('base64url') === grant.challenge;
        const accepted = Boolean(grant) && form.client_id === clientId && form.client_secret === clientSecret && form.redirect_uri === grant!.redirectUri && verifierOk;
        tokenRequests.push({ form, accepted });
        if (!accepted) return json(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        const token = `gho_${randomBytes(16).toString('hex')}`;
        tokens.set(token, grant!.login);
        return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      const login = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      const account = login ? accounts.get(login) : undefined;
      if (req.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
        if (!account) return json(res, 401, { message: 'Bad credentials' });
        if (url.pathname === '/user') return json(res, 200, { id: account.id, login: account.login, name: account.name ?? null, avatar_url: null, email: null });
        return json(res, 200, [
          { email: `${account.login}@users.noreply.github.com`, primary: false, verified: true, visibility: null },
          { email: account.email, primary: true, verified: account.verified, visibility: 'private' },
        ]);
      }
      return json(res, 404, { message: 'Not Found' });
    })().catch((err: Error) => json(res, 500, { message: err.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    clientId,
    clientSecret,
    accounts,
    tokenRequests,
    signInAs(login) {
      next = login;
    },
    flags: () => ['--github-client-id', clientId, '--github-client-secret', clientSecret, '--github-base-url', baseUrl],
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
