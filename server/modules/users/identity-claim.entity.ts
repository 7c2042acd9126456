import { defineEntity, p } from '@mikro-orm/core';

/**
 * One row per email address or phone number in use (docs/api-overview.md#versioning: uniqueness is the
 * service's job, not a UNIQUE index on users). The primary key is the normalised identity itself
 * (`email:<address>`, `phone:<number>`, see identity-claims.ts), so two concurrent transactions that
 * claim the same identity collide on the primary key on every database, and the loser answers
 * already_exists. A claim is inserted and released in the same transaction as the user change.
 */
export const IdentityClaim = defineEntity({
  name: 'IdentityClaim',
  tableName: 'identity_claims',
  properties: {
    id: p.string().primary().length(255),
    userId: p.string().length(36).index(),
    createdAt: p.datetime(),
  },
});

export type IdentityClaimRow = InstanceType<typeof IdentityClaim.class>;
