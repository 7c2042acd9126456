/**
 * What the browser sign-in flows through another party (social sign-in, organization SSO, the SAML identity
 * provider) answer when a sign-in cannot go on: a fixed page of text (the transport writes it with the look
 * and headers of its refusal pages: no-store, no Referer, a CSP that loads nothing) that echoes nothing of the
 * request but escaped text chosen here. Shared by those modules' endpoints, which may not import each other.
 */
import type { Deps } from '../kernel/deps.ts';
import { AppError, HTTP_ERROR_MAP } from '../kernel/errors.ts';
import { clientKey } from '../modules/limits/index.ts';
import type { EndpointAnswer, HtmlRefusal, MessagePage } from './endpoint.ts';

/** A page of these flows: their one title, a heading and sentences. */
export function signInPage(status: number, heading: string, paragraphs: readonly string[], headers?: Readonly<Record<string, string>>): EndpointAnswer {
  return { kind: 'page', status, title: 'Sign-in', heading, paragraphs, ...(headers ? { headers } : {}) };
}

/**
 * The refusalPage of these endpoints: a request that could not be read (a malformed body) says so, anything
 * unexpected names the request id only (the detail goes to the log).
 */
export function signInRefusalPage(refusal: HtmlRefusal): MessagePage {
  const paragraph = refusal.status >= 500 ? `Something went wrong (request ${refusal.requestId}). Start again from the application.` : 'The request could not be read.';
  return { status: refusal.status >= 500 ? 500 : refusal.status, title: 'Sign-in', heading: 'Sign-in failed', paragraphs: [paragraph] };
}

/** An organization that is unknown, disabled or without single sign-on: one page, so the address tells nothing. */
export const organizationSignInUnavailable = (): EndpointAnswer =>
  signInPage(404, 'Organization sign-in unavailable', ['This organization does not offer single sign-on here. Sign in another way, or ask its administrator.']);

/**
 * Spends `points` of the caller's per-IP allowance (kernel/limits.ts) for a step that costs more than a plain
 * request (a signature check, writes); answers the refusal page, with Retry-After (RFC 9110 section 10.2.3),
 * once it is spent.
 */
export async function spendSignInAllowance(deps: Deps, ip: string, points: number): Promise<EndpointAnswer | undefined> {
  try {
    await deps.limits.consume('ip', clientKey(ip), points);
    return undefined;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const headers = err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : undefined;
    return signInPage(HTTP_ERROR_MAP[err.kind].status, 'Too many sign-in attempts', ['Wait a moment and try again.'], headers);
  }
}
