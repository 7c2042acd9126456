/**
 * The addresses of an organization's SSO on this server, all built from --url
 * (docs/security-lessons.md: never from the request's Host). The OIDC callback is one for every organization (the flow's
 * state names the organization); it is the redirect URI to register at each IdP. SAML's addresses are per
 * organization: the SP entityID each IdP issues assertions to must differ between organizations.
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

/**
 * SAML: the service provider's entityID is its metadata address, per organization (SAML 2.0 Metadata
 * 4.1, the well-known location convention); the AssertionConsumerService takes HTTP-POST responses.
 */
export function samlEntityId(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/sso/saml/${encodeURIComponent(orgName)}/metadata`;
}

export function samlAcsUrl(config: Pick<Config, 'url'>, orgName: string): string {
  return `${base(config)}/sso/saml/${encodeURIComponent(orgName)}/acs`;
}
