/**
 * The addresses of an organization's SAML identity provider, built from --url only
 * (docs/security-lessons.md: never from the request's Host). The entity id is the metadata address (SAML 2.0
 * Metadata 4.1, the well-known location convention), one per organization: each organization is its own
 * IdP with its own keys and service providers.
 */
import type { Config } from '../../config/flags.ts';

function base(config: Pick<Config, 'url'>): string {
  return config.url!.replace(/\/+$/, '');
}

export function idpEntityId(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/saml/${encodeURIComponent(orgName)}/metadata`;
}

/** SingleSignOnService for the HTTP-Redirect and HTTP-POST bindings (Bindings 3.4 and 3.5). */
export function idpSsoUrl(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/saml/${encodeURIComponent(orgName)}/sso`;
}

/** SingleLogoutService for the HTTP-Redirect and HTTP-POST bindings (Profiles 4.4, Bindings 3.4 and 3.5). */
export function idpSloUrl(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/saml/${encodeURIComponent(orgName)}/slo`;
}
