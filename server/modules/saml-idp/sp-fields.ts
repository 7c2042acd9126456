/**
 * Checks of the service provider fields (docs/api-overview.md#resources-and-fields, "SAML service provider"). Entity ids and
 * attribute names are printable without spaces (an entityID is a URI, SAML 2.0 Core 8.3.6; a Name is an
 * XML attribute value). ACS and SLO addresses are absolute URLs without credentials or fragment, https: the
 * browser posts the signed assertion there, and a clear-text address would hand it to anyone on the path.
 * Plain http is allowed only to a loopback host (localhost, 127.0.0.0/8, [::1]), a developer's SP on their
 * own machine, as RFC 8252 sections 7.3 and 8.3 allow it for native apps: that traffic never leaves the
 * machine. --org-sso-allow-private-addresses plays no part: the IdP never connects to these addresses (the
 * browser does), so a private address over https is as fine as a public one.
 */
import { AppError } from '../../kernel/errors.ts';
import { isLoopbackHost } from '../../kernel/loopback-host.ts';
import type { AcsEndpoint } from './saml-idp.entities.ts';

export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
/**
 * The bindings by which the IdP answers an SP's LogoutRequest at its SingleLogoutService: HTTP-Redirect
 * (Bindings 3.4, a signed query string) or HTTP-POST (Bindings 3.5, an auto-posting form with a signed
 * LogoutResponse). Stored and answered by the short name.
 */
export const SLO_BINDINGS = { redirect: HTTP_REDIRECT, post: HTTP_POST } as const;
export type SloBinding = keyof typeof SLO_BINDINGS;
export const NAMEID_FORMATS = {
  emailAddress: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
} as const;
/** Our user fields an SP may receive as attributes. */
export const MAPPABLE_FIELDS = ['id', 'email', 'given_name', 'family_name', 'name', 'nickname', 'preferred_username', 'phone_number', 'roles', 'org_roles'] as const;

const PRINTABLE = /^[\x21-\x7e]+$/;

export function checkedEntityId(value: string): string {
  const trimmed = value.trim();
  if (!PRINTABLE.test(trimmed)) throw AppError.invalid('entity_id: a URI without spaces');
  return trimmed;
}

export function checkedAcsUrl(value: string, field = 'acs_endpoints'): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw AppError.invalid(`${field}: not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw AppError.invalid(`${field}: must be https (plain http only to localhost, 127.0.0.1 or [::1])`);
  }
  if (url.username || url.password) throw AppError.invalid(`${field}: must not hold credentials`);
  if (url.hash) throw AppError.invalid(`${field}: must not have a fragment`);
  return url.href;
}

export function checkedAcsEndpoints(input: Array<{ url: string; binding?: string; is_default?: boolean; index?: number }>): AcsEndpoint[] {
  if (input.length === 0) throw AppError.invalid('acs_endpoints: give at least one');
  const endpoints = input.map((entry, position) => {
    const binding = entry.binding?.trim() || HTTP_POST;
    if (binding !== HTTP_POST && binding !== 'HTTP-POST') throw AppError.invalid('acs_endpoints: only the HTTP-POST binding is served');
    return { url: checkedAcsUrl(entry.url), binding: HTTP_POST, index: entry.index ?? position, isDefault: entry.is_default === true };
  });
  if (new Set(endpoints.map((acs) => acs.index)).size !== endpoints.length) throw AppError.invalid('acs_endpoints: each index once');
  if (endpoints.filter((acs) => acs.isDefault).length > 1) throw AppError.invalid('acs_endpoints: at most one default');
  if (!endpoints.some((acs) => acs.isDefault)) endpoints[0]!.isDefault = true;
  return endpoints;
}

/** `redirect` or `post`, also read from the binding's URN or its short name (HTTP-Redirect, HTTP-POST). */
export function checkedSloBinding(value: string): SloBinding {
  const trimmed = value.trim();
  for (const [short, urn] of Object.entries(SLO_BINDINGS) as Array<[SloBinding, string]>) {
    if (trimmed.toLowerCase() === short || trimmed === urn || trimmed.toLowerCase() === urn.slice(urn.lastIndexOf(':') + 1).toLowerCase()) return short;
  }
  throw AppError.invalid('slo_binding: redirect (HTTP-Redirect) or post (HTTP-POST)');
}

/** The binding of a registered SingleLogoutService; one stored before bindings were kept is HTTP-POST, the only one served then. */
export function sloBindingOf(row: { sloUrl?: string | null; sloBinding?: string | null }): SloBinding | null {
  if (!row.sloUrl) return null;
  return row.sloBinding === 'redirect' ? 'redirect' : 'post';
}

export function checkedNameIdFormat(value: string | undefined): string {
  if (value === undefined) return NAMEID_FORMATS.emailAddress;
  const trimmed = value.trim();
  for (const [short, urn] of Object.entries(NAMEID_FORMATS)) if (trimmed === short || trimmed === urn) return urn;
  throw AppError.invalid('name_id_format: emailAddress, persistent or unspecified');
}

export function shortNameIdFormat(urn: string): string {
  return Object.entries(NAMEID_FORMATS).find(([, full]) => full === urn)?.[0] ?? urn;
}

export function checkedAttributeMapping(input: Array<{ field: string; attribute: string }>): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const { field, attribute } of input) {
    if (!(MAPPABLE_FIELDS as readonly string[]).includes(field)) throw AppError.invalid(`attribute_mapping: unknown field ${JSON.stringify(field.slice(0, 64))}; one of ${MAPPABLE_FIELDS.join(', ')}`);
    const name = attribute.trim();
    if (!PRINTABLE.test(name)) throw AppError.invalid('attribute_mapping: an attribute name without spaces');
    if (field in mapping) throw AppError.invalid(`attribute_mapping: ${field} is mapped twice`);
    mapping[field] = name;
  }
  return mapping;
}

export function checkedName(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw AppError.invalid('name: must not be empty');
  return trimmed;
}
