import { defineEntity, p } from '@mikro-orm/core';

/**
 * A user's consent to a registered client that asks for it (consentRequired), for a set of scopes
 * (docs/operations.md, "consent_required"; OpenID Connect Core section 3.1.2.4). One row per user and
 * client: a later consent to more scopes widens it. Revoked by deleting the row (revoke_consent).
 */
export const Consent = defineEntity({
  name: 'Consent',
  tableName: 'oauth_consents',
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36).index(),
    clientId: p.string().length(64),
    scopes: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'oauth_consents_user_client', properties: ['userId', 'clientId'] }],
});

export type ConsentRow = InstanceType<typeof Consent.class>;
