/**
 * GET /verify_email?token=...&state=... (docs/api-overview.md#http-endpoints-outside-v1): the emailed link. It completes the same
 * verify_email operation, sets the session cookies, and lands the browser on the redirect_uri that was
 * stored with the verification request when the link was issued (checked against the allow-list then, and
 * again now), else on this server's /app. The query's own redirect_uri is never followed: a redirect target
 * an attacker can put in a URL is an open redirect (OWASP ASVS 5.1.5; docs/security-lessons.md).
 *
 * A token that is unknown, used or expired answers an HTML error page on this server, with no redirect and
 * nothing of the query in it. A sign-in the MFA gate stops lands on the login UI's MFA step (accounts/mfa-step-url.ts)
 * with the `mfa` cookie, then continues to the same target. Tokens never travel in the redirect URL; the application reads its session
 * with the cookie (the SDK's getSession).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import { invoke } from '../../ops/invoke.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { HTTP_ERROR_MAP, toAppError } from '../../kernel/errors.ts';
import { verifyEmailOp, boundRedirectUri, mfaStepUrl, stoppedAtGate } from '../../modules/accounts/index.ts';
import { sendHtmlErrorPage, UNAVAILABLE_PAGE } from './ui/html-error-page.ts';
import { applyEffects, buildHttpContext } from './request-context.ts';
import type { Static } from '../../ops/schema.ts';
import type { AuthResponse } from '../../modules/accounts/index.ts';

function withParams(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

export function registerVerifyEmailLink(http: FastifyInstance, deps: Deps): void {
  http.get('/verify_email', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const token = typeof query.token === 'string' ? query.token : '';
    const state = typeof query.state === 'string' ? query.state : undefined;
    const ctx = buildHttpContext(deps, request, 'rest');
    let answer: Static<typeof AuthResponse>;
    try {
      answer = (await invoke(verifyEmailOp as unknown as AnyOperation, ctx, { token, state })) as Static<typeof AuthResponse>;
    } catch (err) {
      const error = toAppError(err, ctx.req.requestId);
      // RFC 9110 section 10.2.3, as for every refusal with a wait.
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      // The link is still good while the database is down: say to try again, not to ask for a new one.
      if (error.kind === 'unavailable') return sendHtmlErrorPage(reply, HTTP_ERROR_MAP.unavailable.status, UNAVAILABLE_PAGE);
      return sendHtmlErrorPage(reply, HTTP_ERROR_MAP[error.kind].status, {
        title: 'Link not valid',
        heading: 'This link cannot be used',
        paragraphs: [`${error.message}.`, 'Links work once and expire. Ask for a new one from the application.'],
      });
    }
    applyEffects(reply, ctx.effects);
    const bound = await boundRedirectUri(deps, token);
    reply.header('referrer-policy', 'no-referrer');
    // A user with a second factor (or an offer to set one up) continues at the login UI's MFA step.
    if (stoppedAtGate(answer)) return reply.redirect(mfaStepUrl(deps.config, answer, { redirectUri: bound, state }), 303);
    const target = bound ?? `${deps.config.url!.replace(/\/+$/, '')}/app`;
    return reply.redirect(state ? withParams(target, { state }) : target, 303);
  });
}
