/**
 * The end of every organization SSO sign-in, OIDC callback and SAML ACS alike, once the IdP's answer is
 * validated: the account found, linked or created by the one rule (org-sso/sign-in.ts) in one transaction,
 * then the browser back to the application's vetted target with its state and no token
 * (docs/api-overview.md#authentication), or to the login UI's MFA step when the gate stops the sign-in. A refusal is a page; nothing the
 * IdP sent is shown.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError, HTTP_ERROR_MAP, runAfterRollback } from '../../../../kernel/errors.ts';
import { isUniqueViolation } from '../../../../storage/errors.ts';
import type { HandlerContext } from '../../../../ops/define.ts';
import type { OrganizationRow } from '../../../../modules/organizations/index.ts';
import { SignInRefused } from '../../../../modules/social/index.ts';
import { completeSsoSignIn, type SsoConnection, type SsoIdentity } from '../../../../modules/org-sso/index.ts';
import { applyEffects, buildHttpContext } from '../../request-context.ts';
import { mfaStepUrl } from '../../mfa-step-url.ts';
import { redirectToApplication, sendSocialPage } from '../social/social-pages.ts';

export interface VouchedSignIn {
  org: OrganizationRow;
  connection: SsoConnection;
  identity: SsoIdentity;
  redirectUri: string;
  appState: string;
  scope: string[];
}

export async function finishSsoSignIn(deps: Deps, request: FastifyRequest, reply: FastifyReply, signIn: VouchedSignIn): Promise<FastifyReply> {
  const ctx = buildHttpContext(deps, request, 'rest');
  try {
    const pending: Array<() => Promise<void>> = [];
    const result = await deps.storage.fork().transactional((tx) => {
      const handlerCtx: HandlerContext = { ...ctx, em: tx, afterCommit: (task) => void pending.push(task) };
      return completeSsoSignIn(handlerCtx, { org: signIn.org, connection: signIn.connection, identity: signIn.identity, scope: signIn.scope });
    });
    for (const task of pending) await task();
    if (result.gate) {
      applyEffects(reply, ctx.effects);
      return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(mfaStepUrl(deps.config, result.gate, { redirectUri: signIn.redirectUri, state: signIn.appState }), 302);
    }
    deps.metrics.login('success');
  } catch (err) {
    await runAfterRollback(err, request.log);
    if (err instanceof SignInRefused) return sendSocialPage(reply, err.status, err.heading, err.paragraphs);
    if (isUniqueViolation(err)) {
      // Two first sign-ins of one IdP subject at once: the second loses the race on the link's key.
      return sendSocialPage(reply, 409, 'Sign-in interrupted', ['This sign-in crossed another one for the same person. Start again from the application.']);
    }
    if (err instanceof AppError && err.kind !== 'internal') {
      return sendSocialPage(reply, HTTP_ERROR_MAP[err.kind].status, 'Sign-in failed', [`${err.message}.`]);
    }
    throw err;
  }
  applyEffects(reply, ctx.effects);
  return redirectToApplication(reply, signIn.redirectUri, { state: signIn.appState });
}
