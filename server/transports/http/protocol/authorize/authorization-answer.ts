/**
 * Sends an authorization response (success or error) to the client in its response mode: a 302 for query
 * and fragment (RFC 6749 sections 4.1.2 and 4.2.2), a page for form_post and web_message
 * (response-pages.ts). Every response carries state and iss (RFC 9207 section 2) and is never cached.
 */
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { issuerOf } from '../../../../modules/tokens/index.ts';
import { redirectUrl, responseFields, type ResponseTarget } from '../../../../modules/oauth/index.ts';
import { sendHtmlErrorPage } from '../../ui/html-error-page.ts';
import { sendFormPost, sendWebMessage } from './response-pages.ts';

export function noStoreRedirect(reply: FastifyReply, url: string): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').header('referrer-policy', 'no-referrer').redirect(url, 302);
}

export function sendAuthorizationResponse(
  reply: FastifyReply,
  deps: Deps,
  target: ResponseTarget,
  fields: Record<string, string | undefined>,
): FastifyReply {
  const all = responseFields(target, issuerOf(deps.config), fields);
  switch (target.responseMode) {
    case 'form_post':
      return sendFormPost(reply, target.redirectUri, all);
    case 'web_message':
      return sendWebMessage(reply, target.redirectUri, all);
    default:
      return noStoreRedirect(reply, redirectUrl(target, all));
  }
}

/** The refusal shown when nothing may be sent to the redirect_uri (RFC 6749 section 4.1.2.1). */
export function sendAuthorizeErrorPage(reply: FastifyReply, description: string, status = 400): FastifyReply {
  return sendHtmlErrorPage(reply, status, {
    title: 'Sign-in request not valid',
    heading: 'This sign-in request cannot be used',
    paragraphs: [description, 'Return to the application and try again, or contact its administrator.'],
  });
}
