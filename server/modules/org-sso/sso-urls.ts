/**
 * The two addresses of an organization's SSO on this server, both built from --url (reference.md
 * "Security lessons": never from the request's Host). The callback is one for every organization (the
 * flow's state names the organization); it is the redirect URI to register at each IdP.
 */
import type { Config } from '../../config/flags.ts';

function base(config: Pick<Config, 'url'>): string {
  return config.url!.replace(/\/+$/, '');
}

export function ssoStartUrl(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/sso/${encodeURIComponent(orgName)}/start`;
}

export function ssoCallbackUrl(config: Pick<Config, 'url'>): string {
  return `${base(config)}/sso/oidc/callback`;
}
