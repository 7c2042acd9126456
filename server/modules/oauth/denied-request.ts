/**
 * The end of a denied form_post or web_message request: the consent screen cannot deliver a page response
 * itself, so decide_authorization_request marks the pending request denied and sends the browser to
 * /authorize?request=<id>, answered here with access_denied in the request's own response mode. Only the
 * user (and login) that opened the request can have it answered, and the redirect_uri is checked again.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { EndpointAnswer } from '../../ops/endpoint.ts';
import { authTimeOf } from '../sessions/index.ts';
import { findAuthorizeClient, redirectUriAllowed } from './authorize-client.ts';
import type { ResponseMode } from './authorization-response.ts';
import { closePendingAuthorization, findPendingAuthorization } from './pending-authorizations.ts';
import { closePushedRequestOf } from './pushed-resume.ts';
import { authorizationAnswer, authorizeErrorPage } from './authorize-answers.ts';
import { browserSession } from '../sessions/index.ts';

export async function answerDeniedRequest(ctx: HandlerContext, requestId: string): Promise<EndpointAnswer> {
  const { config } = ctx.deps;
  const expired: EndpointAnswer = { kind: 'page', ...authorizeErrorPage('This sign-in request has expired or belongs to another session.') };
  const found = await browserSession(ctx);
  if (!found) return expired;
  const owner = { userId: found.user.id, authTime: authTimeOf(found.session) };
  const pending = await findPendingAuthorization(ctx.em, ctx.deps.clock.now(), requestId, owner);
  if (!pending || pending.decision !== 'denied') return expired;
  const { redirect_uri: redirectUri, response_mode: responseMode, state } = pending.params;
  const client = await findAuthorizeClient(config, ctx.em, pending.clientId);
  if (!client || !redirectUri || !redirectUriAllowed(config, client, redirectUri)) return expired;
  await closePendingAuthorization(ctx.em, pending);
  await closePushedRequestOf(ctx.em, pending.params);
  return authorizationAnswer(config, { redirectUri, responseMode: responseMode as ResponseMode, state }, {
    error: 'access_denied',
    error_description: 'the user denied the request',
  });
}
