import { defineEntity, p } from '@mikro-orm/core';

/**
 * One second factor of a user (the User of docs/api-overview.md#resources-and-fields `enrolled_mfa_methods`: totp, email_otp, sms_otp; passkeys
 * have their own table). A factor counts once `verifiedAt` is set: enrolment creates the row, the first right
 * code verifies it. `secretSealed` holds the TOTP secret sealed with the at-rest key
 * (docs/configuration.md), never in clear; `lastUsedStep` is the last accepted TOTP time step, so a code is
 * accepted once per step (OWASP ASVS 2.8.4). At most one row per user and method.
 */
export const MfaFactor = defineEntity({
  name: 'MfaFactor',
  tableName: 'mfa_factors',
  uniques: [{ name: 'mfa_factors_user_method', properties: ['userId', 'method'] }],
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36).index(),
    method: p.string().length(16),
    secretSealed: p.string().length(255).nullable(),
    lastUsedStep: p.integer().nullable(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type MfaFactorRow = InstanceType<typeof MfaFactor.class>;
