/**
 * What /authorize answers (authorize.endpoint.ts), as values the transport writes:
 * - an authorization response (success or error) in the client's response mode: a 302 for query and fragment
 *   (RFC 6749 sections 4.1.2 and 4.2.2), a page for form_post (OAuth 2.0 Form Post Response Mode section 2)
 *   and web_message (docs/sdk-compatibility.md); every response carries state and iss (RFC 9207 section 2)
 *   and is never cached;
 * - a page for the person when nothing may be sent to the redirect_uri (RFC 6749 section 4.1.2.1), and for
 *   each refusal of the endpoint itself (a request that could not be read, too many requests, a failure).
 */
import type { Config } from '../../config/flags.ts';
import { noStoreRedirect, type EndpointAnswer, type HtmlRefusal, type MessagePage } from '../../ops/endpoint.ts';
import { issuerOf } from '../tokens/index.ts';
import { redirectUrl, responseFields, type ResponseTarget } from './authorization-response.ts';

export function authorizationAnswer(
  config: Pick<Config, 'url'>,
  target: ResponseTarget,
  fields: Record<string, string | undefined>,
): EndpointAnswer {
  const all = responseFields(target, issuerOf(config), fields);
  switch (target.responseMode) {
    case 'form_post':
      return { kind: 'form-post', action: target.redirectUri, fields: all };
    case 'web_message':
      // Addressed to the redirect_uri's origin only, so no other window can read it.
      return { kind: 'web-message', targetOrigin: new URL(target.redirectUri).origin, message: { type: 'authorization_response', response: all } };
    default:
      return noStoreRedirect(redirectUrl(target, all));
  }
}

/** The page of a sign-in request that cannot be used; nothing goes back to the client. */
export function authorizeErrorPage(description: string, status = 400): MessagePage {
  return {
    status,
    title: 'Sign-in request not valid',
    heading: 'This sign-in request cannot be used',
    paragraphs: [description, 'Return to the application and try again, or contact its administrator.'],
  };
}

/**
 * The page of each refusal of the endpoint: a request the framework could not read (its 4xx status), too
 * many requests (429, with Retry-After from the transport, RFC 6585 section 4), and anything else, which
 * only a failure of the server gets to, as a 500 naming the request id (the detail in the log only).
 */
export function authorizeRefusalPage(refusal: HtmlRefusal): MessagePage {
  if (refusal.status === 429) return authorizeErrorPage('Too many requests: wait a moment and try again.', 429);
  if (refusal.reason === undefined && refusal.status >= 400 && refusal.status < 500) {
    return authorizeErrorPage('The request could not be read.', refusal.status);
  }
  return authorizeErrorPage(`Something went wrong on the server (request ${refusal.requestId}).`, 500);
}
