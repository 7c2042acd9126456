/**
 * GET /verify_email?token=...&redirect_uri=... (specification part 4.3): the emailed link. It completes the
 * same verify_email operation, sets the session cookies, and lands the browser on the application when the
 * redirect_uri is allowed (accounts/redirect-uri.ts), else on this server's /app. Tokens never travel in
 * the redirect URL; the application reads its session with the cookie (the SDK's getSession).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import { invoke } from '../../ops/invoke.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { AppError, HTTP_ERROR_MAP } from '../../kernel/errors.ts';
import { verifyEmailOp } from '../../modules/accounts/email-link.ops.ts';
import { isAllowedRedirect } from '../../modules/accounts/redirect-uri.ts';
import { applyEffects, buildHttpContext } from './request-context.ts';
import { sendAppError } from './errors.ts';

function withParams(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

export function registerVerifyEmailLink(http: FastifyInstance, deps: Deps): void {
  http.get('/verify_email', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const wanted = query.redirect_uri;
    const target = wanted && isAllowedRedirect(deps.config, wanted) ? wanted : `${deps.config.url!.replace(/\/+$/, '')}/app`;
    const ctx = buildHttpContext(deps, request, 'rest');
    try {
      await invoke(verifyEmailOp as unknown as AnyOperation, ctx, { token: query.token ?? '', state: query.state });
      applyEffects(reply, ctx.effects);
      return reply.redirect(query.state ? withParams(target, { state: query.state }) : target, 303);
    } catch (err) {
      const error = err as AppError;
      if (!wanted || target !== wanted) return sendAppError(reply, error);
      const code = HTTP_ERROR_MAP[error.kind].code;
      return reply.redirect(withParams(target, { error: code, error_description: error.message }), 303);
    }
  });
}
