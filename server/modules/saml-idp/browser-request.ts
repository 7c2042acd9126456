/**
 * What the IdP's browser endpoints (sso.endpoint.ts, slo.endpoint.ts) read of a request: the organization of
 * the path, the SAML message as received by its binding, and the browser's session here.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { presentedSession } from '../../kernel/cookies.ts';
import { AppError } from '../../kernel/errors.ts';
import type { EndpointAnswer, EndpointRequest } from '../../ops/endpoint.ts';
import { findOrganization, type OrganizationRow } from '../organizations/index.ts';
import type { SessionRow } from '../sessions/index.ts';
import type { UserRow } from '../users/index.ts';
import { validateSessionToken } from '../tokens/index.ts';
import type { ReceivedRequest } from './authn-request.ts';

/** Bindings 3.4.3 asks SPs for at most 80 bytes; some send more, so the bound is looser but still a bound. */
export const MAX_RELAY_STATE = 1024;

/** A parameter of the form (the GET query or the POST body, as parsed): a non-empty text, else undefined. */
export function formText(form: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The enabled organization the path names (a name is at most 63 characters), else null. */
export async function enabledOrganization(em: EntityManager, name: string): Promise<OrganizationRow | null> {
  const org = name.length <= 63 ? await findOrganization(em, { name }) : null;
  return org?.enabled ? org : null;
}

/**
 * The SAML message by the binding of the request's method: POST by HTTP-POST (Bindings 3.5), otherwise by
 * HTTP-Redirect (Bindings 3.4), whose signature covers the query string exactly as sent (Bindings 3.4.4.1).
 */
export function receivedBy(request: EndpointRequest, samlRequest: string): ReceivedRequest {
  return request.method === 'POST' ? { binding: 'post', samlRequest } : { binding: 'redirect', samlRequest, rawQuery: request.rawQuery };
}

export interface BrowserSession {
  session: SessionRow;
  user: UserRow;
}

/** The session of the request's cookie (kernel/cookies.ts) if it is live and its user active; undefined otherwise. */
export async function browserSession(ctx: OpContext): Promise<BrowserSession | undefined> {
  const cookie = presentedSession(ctx.credentials.cookies);
  if (!cookie) return undefined;
  try {
    return await validateSessionToken(ctx, cookie);
  } catch (err) {
    if (err instanceof AppError && err.kind === 'unauthenticated') return undefined;
    throw err;
  }
}

/** A redirect that is not cached and sends no Referer (its URL may carry a SAML message or a resume handle). */
export function noStoreRedirect(location: string): EndpointAnswer {
  return { kind: 'redirect', location, status: 302, headers: { 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer' } };
}
