/**
 * The end of a denied form_post or web_message request: the consent screen cannot deliver a page response
 * itself, so decide_authorization_request marks the pending request denied and sends the browser to
 * /authorize?request=<id>, answered here with access_denied in the request's own response mode. Only the
 * user (and login) that opened the request can have it answered, and the redirect_uri is checked again.
 */
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import type { OpContext } from '../../../../kernel/context.ts';
import { authTimeOf } from '../../../../modules/sessions/index.ts';
import {
  closePendingAuthorization, findAuthorizeClient, findPendingAuthorization, redirectUriAllowed, type ResponseMode,
} from '../../../../modules/oauth/index.ts';
import { sendAuthorizationResponse, sendAuthorizeErrorPage } from './authorization-answer.ts';
import { browserSession } from './browser-session.ts';

export async function answerDeniedRequest(deps: Deps, ctx: OpContext, reply: FastifyReply, requestId: string): Promise<FastifyReply> {
  const expired = () => sendAuthorizeErrorPage(reply, 'This sign-in request has expired or belongs to another session.');
  const found = await browserSession(ctx);
  if (!found) return expired();
  const em = deps.storage.fork();
  const owner = { userId: found.user.id, authTime: authTimeOf(found.session) };
  const pending = await findPendingAuthorization(em, deps.clock.now(), requestId, owner);
  if (!pending || pending.decision !== 'denied') return expired();
  const { redirect_uri: redirectUri, response_mode: responseMode, state } = pending.params;
  const client = await findAuthorizeClient(deps.config, em, pending.clientId);
  if (!client || !redirectUri || !redirectUriAllowed(deps.config, client, redirectUri)) return expired();
  await closePendingAuthorization(em, pending);
  return sendAuthorizationResponse(reply, deps, { redirectUri, responseMode: responseMode as ResponseMode, state }, {
    error: 'access_denied',
    error_description: 'the user denied the request',
  });
}
