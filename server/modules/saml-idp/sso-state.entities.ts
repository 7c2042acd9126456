import { defineEntity, p } from '@mikro-orm/core';

/**
 * An AuthnRequest already answered (the task of an IdP under SAML 2.0 Core 3.2.1: a request ID is unique;
 * one seen again is a replay). Keyed by the digest of `<service provider id>:<request ID>`, so a second use
 * collides on the primary key on every database; kept until the request could no longer be fresh.
 */
export const SamlIdpRequestUse = defineEntity({
  name: 'SamlIdpRequestUse',
  tableName: 'saml_idp_request_uses',
  properties: {
    id: p.string().primary().length(64),
    orgId: p.string().length(36).index(),
    expiresAt: p.datetime().index(),
  },
});

/**
 * A validated sign-in request waiting for the browser to sign in (the login UI, then back to
 * /saml/<organization>/sso?resume=<handle>): named by the digest of the handle, ten minutes, used once.
 * It holds what the response needs: the service provider, the request's ID (absent for IdP-initiated),
 * the chosen ACS and the RelayState to send back, and for ForceAuthn the moment the sign-in must not
 * predate (Core 3.4.1: the IdP must authenticate the presenter again).
 */
export const SamlIdpPendingLogin = defineEntity({
  name: 'SamlIdpPendingLogin',
  tableName: 'saml_idp_pending_logins',
  // The expiry sweep (pending-login-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'saml_idp_pending_logins_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(64),
    orgId: p.string().length(36).index(),
    serviceProviderId: p.string().length(36),
    requestId: p.string().length(256).nullable(),
    acsUrl: p.string().length(2048),
    relayState: p.text().nullable(),
    authAfter: p.datetime().nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});
export type SamlIdpPendingLoginRow = InstanceType<typeof SamlIdpPendingLogin.class>;
