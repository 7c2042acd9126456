/**
 * Sign-in requests waiting for the browser to sign in (sso-state.entities.ts SamlIdpPendingLogin), the
 * IdP's counterpart of the OAuth resume (oauth/resume-url.ts): the SSO endpoint stores the validated
 * request and sends the browser to the login UI with a resume address on this server; the handle in it
 * is random, stored only as its digest, good for ten minutes and once.
 */
import type { Deps } from '../../kernel/deps.ts';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { SamlIdpPendingLogin, type SamlIdpPendingLoginRow } from './sso-state.entities.ts';

export const PENDING_LOGIN_SECONDS = 10 * 60;

export interface NewPendingLogin {
  orgId: string;
  serviceProviderId: string;
  requestId: string | null;
  acsUrl: string;
  relayState: string | null;
  authAfter: Date | null;
}

/** Answers the handle for the resume address. */
export async function openPendingLogin(deps: Pick<Deps, 'storage' | 'clock'>, pending: NewPendingLogin): Promise<string> {
  const em = deps.storage.fork();
  const now = deps.clock.now();
  const handle = randomToken(32);
  // Expired rows are the background sweep's (pending-login-sweep.ts).
  em.create(SamlIdpPendingLogin, { id: sha256Hex(handle), ...pending, createdAt: now, expiresAt: new Date(now.getTime() + PENDING_LOGIN_SECONDS * 1000) });
  await em.flush();
  return handle;
}

/** The live pending sign-in of this organization with this handle, taken (deleted) so it serves once. */
export async function takePendingLogin(deps: Pick<Deps, 'storage' | 'clock'>, orgId: string, handle: string): Promise<SamlIdpPendingLoginRow | undefined> {
  if (handle === '' || handle.length > 128) return undefined;
  const em = deps.storage.fork();
  const row = await em.findOne(SamlIdpPendingLogin, { id: sha256Hex(handle), orgId });
  if (!row) return undefined;
  // The delete decides under concurrency: only the request that removed the row goes on.
  const removed = await em.nativeDelete(SamlIdpPendingLogin, { id: row.id });
  if (removed !== 1 || row.expiresAt.getTime() <= deps.clock.now().getTime()) return undefined;
  return row;
}
