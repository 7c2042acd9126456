/**
 * What the social sign-in routes answer a browser: an HTML page for a refusal (html-error-page.ts: nothing
 * of the request reflected but escaped text we chose), or a redirect to the application's vetted target.
 */
import type { FastifyReply } from 'fastify';
import { sendHtmlErrorPage } from '../../ui/html-error-page.ts';

export function sendSocialPage(reply: FastifyReply, status: number, heading: string, paragraphs: readonly string[]): FastifyReply {
  return sendHtmlErrorPage(reply, status, { title: 'Sign-in', heading, paragraphs });
}

export const notFoundPage = (reply: FastifyReply) =>
  sendSocialPage(reply, 404, 'Unknown sign-in provider', ['This server does not offer sign-in with that provider.']);

/**
 * A redirect to a target that passed isAllowedRedirect, with our parameters set over any of the same name
 * (an application's own `state` or `error` in its URL cannot masquerade as ours). No token ever goes in it:
 * the session travels in its cookies (docs/api-overview.md#authentication).
 */
export function redirectToApplication(reply: FastifyReply, target: string, params: Record<string, string>): FastifyReply {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(url.toString(), 302);
}
