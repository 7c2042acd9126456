/**
 * URLs that send the browser back into /authorize, built from --url only (docs/security-lessons.md:
 * never from the Host header).
 */
import type { Config } from '../../config/flags.ts';
import { issuerOf } from '../tokens/index.ts';

/** {--url}/authorize?<params>: resumes an authorization request after sign-in or consent. */
export function authorizeResumeUrl(config: Pick<Config, 'url'>, params: Record<string, string>): string {
  return `${issuerOf(config)}/authorize?${new URLSearchParams(params).toString()}`;
}

/** The resume URL of a denied form_post or web_message request, answered by /authorize as access_denied. */
export function deniedResumeUrl(config: Pick<Config, 'url'>, requestId: string): string {
  return `${issuerOf(config)}/authorize?${new URLSearchParams({ request: requestId }).toString()}`;
}

/** The parameters without one prompt value (the one just satisfied), so that resuming does not ask again. */
export function withoutPrompt(params: Record<string, string>, satisfied: string): Record<string, string> {
  const { prompt, ...rest } = params;
  const left = (prompt ?? '').split(' ').filter((value) => value && value !== satisfied);
  return left.length > 0 ? { ...rest, prompt: left.join(' ') } : rest;
}
