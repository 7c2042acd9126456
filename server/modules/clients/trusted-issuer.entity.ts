import { defineEntity, p } from '@mikro-orm/core';

/**
 * An external token issuer a registered client trusts (docs/api-overview.md#resources-and-fields, "Trusted issuer": name, JWKS URL,
 * expected audience, active state, SPIFFE hint, subject_claim, owning client). Its JWKS verifies the
 * client's private_key_jwt assertions (RFC 7523 section 2.2) and the jwt-bearer grant's assertions whose
 * iss is `issuer` (RFC 7523 section 2.1). Deleted with its client (clients.service.ts deleteClient).
 */
export const TrustedIssuer = defineEntity({
  name: 'TrustedIssuer',
  tableName: 'trusted_issuers',
  properties: {
    id: p.string().primary().length(36),
    /** The owning client's public client_id (Client.clientId). */
    clientId: p.string().length(64).index('trusted_issuers_client'),
    name: p.string().length(255),
    /** The iss value its assertions carry (RFC 7519 section 4.1.1); unique per client. */
    issuer: p.string().length(255),
    /** https (http only for loopback hosts): where its signing keys are published (RFC 7517 section 5). */
    jwksUrl: p.string().length(2048),
    /** The aud its jwt-bearer assertions must name (RFC 7523 section 3, item 3). */
    audience: p.string().length(2048),
    /** The claim whose value becomes the token subject in the jwt-bearer grant; `sub` by default. */
    subjectClaim: p.string().length(128),
    /** A SPIFFE trust domain or ID the operator expects of this issuer; informative, never trusted on its own. */
    spiffeHint: p.string().length(2048).nullable(),
    isActive: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'trusted_issuers_client_issuer', properties: ['clientId', 'issuer'] }],
});

export type TrustedIssuerRow = InstanceType<typeof TrustedIssuer.class>;

/** A consumed assertion jti (RFC 7523 section 3, item 7): kept until the assertion's exp, then swept. */
export const UsedAssertion = defineEntity({
  name: 'UsedAssertion',
  tableName: 'used_assertions',
  properties: {
    /** SHA-256 (hex) of who vouched for the assertion and its jti, so any jti length fits one key. */
    id: p.string().primary().length(64),
    expiresAt: p.datetime().index('used_assertions_expiry'),
  },
});

export type UsedAssertionRow = InstanceType<typeof UsedAssertion.class>;
