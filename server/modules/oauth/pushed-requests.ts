/**
 * Pushed authorization requests (RFC 9126; pushed-request.entity.ts): stored by POST /oauth/par, read by
 * /authorize through request_uri.
 *
 * RFC 9126 section 4 has the client use a request_uri once and lets the server allow a repeat "due to a user
 * reloading/refreshing their user agent". Here the request stays readable while the browser goes through
 * sign-in or consent and comes back to /authorize with the same request_uri (the resume URL carries
 * client_id and request_uri only, so a client that must push never has its parameters on a URL), and is
 * deleted as soon as /authorize answers the client (a code, tokens or an error): a second use after that is
 * refused. The short expires_in (RFC 9126 section 2.2) bounds the time between the push and the first
 * /authorize; the first read extends it to the consent screen's lifetime. A request never used is deleted by
 * the background sweep (pushed-request-sweep.ts) once expired, and a client holds at most
 * MAX_LIVE_PUSHES_PER_CLIENT live requests, so its credentials cannot fill the table.
 */
import type { EntityManager } from '@mikro-orm/core';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { PENDING_SECONDS } from './pending-authorizations.ts';
import { PushedAuthorizationRequest, type PushedAuthorizationRequestRow } from './pushed-request.entity.ts';

/** RFC 9126 section 2.2 example and section 7.3 advice: short-lived. */
export const PUSHED_REQUEST_SECONDS = 60;
/** RFC 9126 section 2.2: the request_uri's form, a URN with a random reference. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
/**
 * Live (unexpired) pushed requests one client may hold: about 16 sign-ins a second that each wait their minute,
 * beyond any honest client's pace, while a leaked secret or a loop cannot store requests without bound.
 */
export const MAX_LIVE_PUSHES_PER_CLIENT = 1000;

/**
 * Stores the validated parameters; answers the request_uri (only the digest of its random part is kept). A
 * client at its cap of live requests is refused with 429 (RFC 9126 section 2.3, "Too Many Requests").
 */
export async function storePushedRequest(em: EntityManager, now: Date, clientId: string, params: Record<string, string>): Promise<string> {
  const live = await em.count(PushedAuthorizationRequest, { clientId, expiresAt: { $gt: now } });
  if (live >= MAX_LIVE_PUSHES_PER_CLIENT) {
    throw new OAuthError(429, 'invalid_request', `too many pushed authorization requests of this client are waiting (at most ${MAX_LIVE_PUSHES_PER_CLIENT}): use or let expire the ones pushed, then push again`);
  }
  const reference = randomToken(32);
  em.create(PushedAuthorizationRequest, {
    id: sha256Hex(reference),
    clientId,
    params,
    createdAt: now,
    opened: false,
    expiresAt: new Date(now.getTime() + PUSHED_REQUEST_SECONDS * 1000),
  });
  await em.flush();
  return REQUEST_URI_PREFIX + reference;
}

export type PushedLookup =
  | { ok: true; row: PushedAuthorizationRequestRow }
  | { ok: false; description: string };

/**
 * The live request named by request_uri for this client, opened (its lifetime extended) on its first read.
 * Unknown, spent, expired and another client's requests get one answer.
 */
export async function openPushedRequest(em: EntityManager, now: Date, requestUri: string, clientId: string): Promise<PushedLookup> {
  const refused = { ok: false, description: 'The request_uri is unknown, expired, already used, or was pushed by another application.' } as const;
  if (!requestUri.startsWith(REQUEST_URI_PREFIX) || requestUri.length > 128) return refused;
  const row = await em.findOne(PushedAuthorizationRequest, { id: sha256Hex(requestUri.slice(REQUEST_URI_PREFIX.length)) });
  if (!row || row.expiresAt.getTime() <= now.getTime() || row.clientId !== clientId) return refused;
  if (!row.opened) {
    row.opened = true;
    row.expiresAt = new Date(now.getTime() + PENDING_SECONDS * 1000);
    await em.flush();
  }
  return { ok: true, row };
}

/** Replaces the stored parameters (a prompt satisfied by sign-in or consent), so the resume does not ask again. */
export async function rewritePushedRequest(em: EntityManager, requestUri: string, params: Record<string, string>): Promise<void> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return;
  await em.nativeUpdate(PushedAuthorizationRequest, { id: sha256Hex(requestUri.slice(REQUEST_URI_PREFIX.length)) }, { params });
}

/**
 * Ends the request once /authorize answers the client: the request_uri is spent. False when it was already
 * gone (a concurrent /authorize with the same request_uri spent it first): only one answer is issued.
 */
export async function closePushedRequest(em: EntityManager, requestUri: string): Promise<boolean> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return false;
  return (await em.nativeDelete(PushedAuthorizationRequest, { id: sha256Hex(requestUri.slice(REQUEST_URI_PREFIX.length)) })) === 1;
}
