/**
 * The registered name of the application a sign-in page returns to, when that page was opened by the
 * authorization endpoint: /authorize sends a browser without a session to
 * /app?redirect_uri={--url}/authorize?client_id=…&redirect_uri=… (authorize.endpoint.ts). The name comes
 * from this server's records and only for a client whose redirect_uri passes the same check /authorize
 * makes (RFC 6749 section 3.1.2.3), so a crafted link cannot make the page name another application.
 */
import type { Deps } from '../../kernel/deps.ts';
import { findAuthorizeClient, redirectUriAllowed } from './authorize-client.ts';
import { issuerOf } from '../tokens/index.ts';

export async function returningClientName(deps: Pick<Deps, 'config' | 'storage'>, redirectUri: unknown): Promise<string | undefined> {
  if (typeof redirectUri !== 'string') return undefined;
  let resume: URL;
  try {
    resume = new URL(redirectUri);
  } catch {
    return undefined;
  }
  if (`${resume.origin}${resume.pathname}` !== `${issuerOf(deps.config)}/authorize`) return undefined;
  const clientId = resume.searchParams.get('client_id');
  const target = resume.searchParams.get('redirect_uri');
  if (!clientId || !target) return undefined;
  const client = await findAuthorizeClient(deps.config, deps.storage.fork(), clientId);
  if (!client || !redirectUriAllowed(deps.config, client, target)) return undefined;
  return client.name || undefined;
}
