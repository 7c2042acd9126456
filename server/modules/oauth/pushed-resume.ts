/**
 * The URL that resumes an authorization request after sign-in or consent (resume-url.ts), for pushed requests
 * too: a request read from a request_uri carries it in its params; its stored parameters are rewritten
 * (the satisfied prompt removed) and the browser comes back with client_id and request_uri alone, so a
 * client that must push (RFC 9126 section 4) never has its parameters on a URL and the resume is not
 * refused for lacking a request_uri.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import { authorizeResumeUrl } from './resume-url.ts';
import { closePushedRequest, rewritePushedRequest } from './pushed-requests.ts';

export async function resumeAuthorizationUrl(em: EntityManager, config: Pick<Config, 'url'>, params: Record<string, string>): Promise<string> {
  const { request_uri: requestUri, ...stored } = params;
  if (!requestUri) return authorizeResumeUrl(config, params);
  await rewritePushedRequest(em, requestUri, stored);
  return authorizeResumeUrl(config, { client_id: stored.client_id ?? '', request_uri: requestUri });
}

/** Spends the pushed request behind these params, if any, once the client has had its answer. */
export async function closePushedRequestOf(em: EntityManager, params: Record<string, string>): Promise<boolean> {
  return params.request_uri ? closePushedRequest(em, params.request_uri) : true;
}
