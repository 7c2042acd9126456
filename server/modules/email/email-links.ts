/**
 * Every link this server emails is built here from --url (or --reset-password-url), never from request
 * headers: links derived from Host were the reset-link poisoning of the released line
 * (docs/security-lessons.md). The caller's redirect_uri rides along so the link can land on the application;
 * the operation that accepts a redirect_uri is responsible for checking it against the allowed origins.
 */
import type { Config } from '../../config/flags.ts';
import type { EmailEvent } from './email-events.ts';

export interface LinkParams {
  /** The raw verification token (createVerification's answer). */
  token: string;
  redirectUri?: string;
}

type LinkConfig = Pick<Config, 'url' | 'resetPasswordUrl'>;

/** --url without a trailing slash. The server refuses to start without it (docs/configuration.md). */
export function publicBaseUrl(config: Pick<Config, 'url'>): string {
  if (!config.url) throw new Error('--url is not set; emailed links cannot be built');
  return config.url.replace(/\/+$/, '');
}

function withQuery(target: string, params: LinkParams): string {
  const url = new URL(target);
  url.searchParams.set('token', params.token);
  if (params.redirectUri) url.searchParams.set('redirect_uri', params.redirectUri);
  return url.toString();
}

/** `<url>/verify_email?token=..&redirect_uri=..`: email verification, magic link, email change, invitation. */
export function verifyEmailLink(config: Pick<Config, 'url'>, params: LinkParams): string {
  return withQuery(`${publicBaseUrl(config)}/verify_email`, params);
}

/** --reset-password-url when set, else the built-in page `<url>/app/reset-password`. */
export function resetPasswordLink(config: LinkConfig, params: LinkParams): string {
  const target = config.resetPasswordUrl || `${publicBaseUrl(config)}/app/reset-password`;
  return withQuery(target, params);
}

/** The link an event's email carries; verify_otp carries a code instead of a link. */
export function emailLinkFor(config: LinkConfig, event: Exclude<EmailEvent, 'verify_otp'>, params: LinkParams): string {
  return event === 'forgot_password' ? resetPasswordLink(config, params) : verifyEmailLink(config, params);
}
