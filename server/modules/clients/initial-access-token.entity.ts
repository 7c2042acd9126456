import { defineEntity, p } from '@mikro-orm/core';

/**
 * An initial access token (RFC 7591 section 3: "the authorization server MAY require an initial access
 * token"), issued by an admin (initial-access-tokens.ops.ts) for --dynamic-registration initial-token. Only
 * its digest is kept (initial-access-tokens.ts); it ends at expiresAt, when its uses are spent, or when an
 * admin revokes it (the row is deleted).
 */
export const InitialAccessToken = defineEntity({
  name: 'InitialAccessToken',
  tableName: 'initial_access_tokens',
  properties: {
    id: p.string().primary().length(36),
    tokenHash: p.string().length(64).unique(),
    description: p.string().length(255),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    /** Registrations it may still make; null: any number until it expires. */
    usesLeft: p.integer().nullable(),
  },
});

export type InitialAccessTokenRow = InstanceType<typeof InitialAccessToken.class>;
