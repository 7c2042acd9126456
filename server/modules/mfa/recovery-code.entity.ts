import { defineEntity, p } from '@mikro-orm/core';

/** One recovery code of a user, as its digest only (recovery-codes.ts); `usedAt` makes it single-use. */
export const RecoveryCode = defineEntity({
  name: 'RecoveryCode',
  tableName: 'mfa_recovery_codes',
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36).index(),
    digest: p.string().length(64),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});

export type RecoveryCodeRow = InstanceType<typeof RecoveryCode.class>;
