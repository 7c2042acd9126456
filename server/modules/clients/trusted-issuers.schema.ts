/**
 * Wire shapes of the trusted issuers (docs/api-overview.md#resources-and-fields, "Trusted issuer"; docs/operations.md, "Trusted issuers":
 * add, update, delete, get, list filtered by client id) and the checks of their values. The owning client is
 * named by its client_id, or by `service_account_id`, the name the released API also gives it.
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { isInternalHost } from '../../kernel/outbound-address.ts';
import { unixSeconds } from '../users/index.ts';
import type { TrustedIssuerRow } from './trusted-issuer.entity.ts';
import { isLoopbackHost } from '../../kernel/loopback-host.ts';

const clientRef = s.string({ maxLength: 64 });
const name = s.string({ minLength: 1, maxLength: 255 });
const issuer = s.string({ minLength: 1, maxLength: 255 });
const url = s.string({ minLength: 1, maxLength: 2048 });
const audience = s.string({ minLength: 1, maxLength: 2048 });
const subjectClaim = s.string({ minLength: 1, maxLength: 128 });
const spiffeHint = s.string({ maxLength: 2048 });

export const TrustedIssuerSchema = s.object('TrustedIssuer', {
  id: s.string(),
  client_id: s.string(),
  name: s.string(),
  issuer: s.string(),
  jwks_url: s.string(),
  audience: s.string(),
  subject_claim: s.string(),
  spiffe_hint: s.optional(s.string()),
  is_active: s.boolean(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const TrustedIssuers = s.object('TrustedIssuers', {
  trusted_issuers: s.list(TrustedIssuerSchema),
  pagination: Pagination,
});

export const AddTrustedIssuerRequest = s.object('AddTrustedIssuerRequest', {
  client_id: s.optional(clientRef),
  service_account_id: s.optional(clientRef),
  name,
  issuer,
  jwks_url: url,
  audience: s.optional(audience),
  subject_claim: s.optional(subjectClaim),
  spiffe_hint: s.optional(spiffeHint),
  is_active: s.optional(s.boolean()),
});

/** docs/operations.md: update changes name, JWKS URL, expected audience, active state or SPIFFE hint. */
export const UpdateTrustedIssuerRequest = s.object('UpdateTrustedIssuerRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
  name: s.optional(name),
  jwks_url: s.optional(url),
  audience: s.optional(audience),
  spiffe_hint: s.optional(spiffeHint),
  is_active: s.optional(s.boolean()),
});

export const TrustedIssuerIdRequest = s.object('TrustedIssuerIdRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
});

export const TrustedIssuersRequest = s.object('TrustedIssuersRequest', {
  client_id: s.optional(clientRef),
  service_account_id: s.optional(clientRef),
  pagination: s.optional(PaginationRequest),
});

export type PublicTrustedIssuer = Static<typeof TrustedIssuerSchema>;

export function toPublicTrustedIssuer(row: TrustedIssuerRow): PublicTrustedIssuer {
  return {
    id: row.id,
    client_id: row.clientId,
    name: row.name,
    issuer: row.issuer,
    jwks_url: row.jwksUrl,
    audience: row.audience,
    subject_claim: row.subjectClaim,
    ...(row.spiffeHint ? { spiffe_hint: row.spiffeHint } : {}),
    is_active: row.isActive,
    created_at: unixSeconds(row.createdAt)!,
    updated_at: unixSeconds(row.updatedAt)!,
  };
}

/**
 * The owning client named by client_id or its alias service_account_id; both may be given only when equal.
 * Answers undefined when neither is (a list without a filter).
 */
export function owningClientIdOf(input: { client_id?: string; service_account_id?: string }): string | undefined {
  const byClientId = input.client_id?.trim() || undefined;
  const byAlias = input.service_account_id?.trim() || undefined;
  if (byClientId && byAlias && byClientId !== byAlias) {
    throw AppError.invalid('client_id and service_account_id name different clients: give one of them');
  }
  return byClientId ?? byAlias;
}

/**
 * A JWKS URL: https, so that the keys that vouch for a client cannot be swapped on the way (RFC 7517
 * section 9.4 "Key Provenance and Trust"); plain http only to a loopback host. No credentials in it (they would
 * be shown by every read), no fragment. Any anonymous jwt-bearer request makes the server fetch it, so it
 * follows the outbound address policy (kernel/outbound-address.ts, OWASP SSRF Prevention Cheat Sheet): an
 * internal literal or local name is refused here unless `allowPrivate`; a name's addresses are checked
 * again at every fetch (jwks-fetch.ts), since DNS may change.
 */
export function checkedJwksUrl(value: string, allowPrivate: boolean): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw AppError.invalid(`jwks_url: not an absolute URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw AppError.invalid('jwks_url: only https URLs are allowed');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw AppError.invalid('jwks_url: must be https (plain http is allowed only for a loopback host)');
  }
  if (!/^https?:\/\/[^/\\]/i.test(text) || text.includes('\\') || /\s/.test(text)) {
    throw AppError.invalid('jwks_url: not a URL of the form scheme://host/...');
  }
  if (url.username || url.password) throw AppError.invalid('jwks_url: must not carry credentials');
  if (url.hash) throw AppError.invalid('jwks_url: must not have a fragment');
  if (!allowPrivate && isInternalHost(url.hostname)) {
    throw AppError.invalid(`jwks_url: ${INTERNAL_JWKS_MESSAGE}`);
  }
  return text;
}

export const INTERNAL_JWKS_MESSAGE =
  'names a loopback, private, link-local or otherwise internal address; set --trusted-issuer-allow-private-addresses=true to allow it';

/** The issuer identifier: a case-sensitive string compared exactly (RFC 7519 section 4.1.1), without spaces. */
export function checkedIssuer(value: string): string {
  if (value.trim() !== value || value.length === 0 || /[\s\x00-\x1f\x7f]/.test(value)) {
    throw AppError.invalid('issuer: must be the exact iss value, without spaces or control characters');
  }
  return value;
}

export function checkedAudience(value: string): string {
  if (value.trim() !== value || value.length === 0 || /[\s\x00-\x1f\x7f]/.test(value)) {
    throw AppError.invalid('audience: must be one aud value, without spaces or control characters');
  }
  return value;
}

/** A top-level claim name (the subject is read from payload[subject_claim]). */
export function checkedSubjectClaim(value: string): string {
  if (!/^[A-Za-z0-9_:.\-/]{1,128}$/.test(value)) {
    throw AppError.invalid('subject_claim: a claim name of letters, digits and _ : . - / only');
  }
  return value;
}

export function checkedIssuerName(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw AppError.invalid('name must not be empty');
  return trimmed;
}
