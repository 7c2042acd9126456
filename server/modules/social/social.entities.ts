import { defineEntity, p } from '@mikro-orm/core';

/**
 * One social sign-in between /oauth_login and /oauth_callback (login-state.ts). The key is the SHA-256 of
 * the random `state` sent upstream, so the database never holds a value that finishes a flow; the PKCE
 * verifier and nonce are sealed (kernel/encryption.ts). `bindingHash` ties the flow to the browser that
 * started it (the digest of its HttpOnly binding cookie). Single use: the callback deletes the row.
 */
export const SocialLoginState = defineEntity({
  name: 'SocialLoginState',
  tableName: 'social_login_states',
  properties: {
    id: p.string().primary().length(64),
    provider: p.string().length(32),
    bindingHash: p.string().length(64),
    /** Sealed JSON {verifier, nonce}. */
    secrets: p.text(),
    redirectUri: p.text(),
    appState: p.text(),
    /** Roles asked for by the application (empty: the defaults), checked against --roles at the start. */
    roles: p.json<string[]>(),
    scope: p.json<string[]>(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime(),
  },
});

export type SocialLoginStateRow = InstanceType<typeof SocialLoginState.class>;

/**
 * A user's identity at a social provider, so a later sign-in finds the same account by the provider's
 * stable subject rather than by an email address that may change or be unverified. The primary key is
 * `<provider>:<subject>`, so two concurrent first sign-ins collide on it on every database.
 */
export const SocialIdentity = defineEntity({
  name: 'SocialIdentity',
  tableName: 'social_identities',
  properties: {
    id: p.string().primary().length(300),
    provider: p.string().length(32),
    subject: p.string().length(255),
    userId: p.string().length(36).index(),
    createdAt: p.datetime(),
  },
});

export type SocialIdentityRow = InstanceType<typeof SocialIdentity.class>;
