/**
 * Meta: the public feature flags of this instance, as the SDK reads them. Admin meta adds the role lists.
 * Built from the parsed configuration only, so every protocol answers the same object.
 */
import { s, type Static } from '../../ops/schema.ts';
import type { Config } from '../../config/flags.ts';
import { enabledMfaMethods } from '../mfa/index.ts';
import { emailConfigurationProblem } from '../email/index.ts';
import { missingSmsFlags } from '../sms/index.ts';
import { PORTCULLIS_VERSION } from '../../version.ts';

const metaFields = {
  version: s.string(),
  client_id: s.string(),
  is_google_login_enabled: s.boolean(),
  is_facebook_login_enabled: s.boolean(),
  is_github_login_enabled: s.boolean(),
  is_linkedin_login_enabled: s.boolean(),
  is_apple_login_enabled: s.boolean(),
  is_discord_login_enabled: s.boolean(),
  is_twitter_login_enabled: s.boolean(),
  is_microsoft_login_enabled: s.boolean(),
  is_twitch_login_enabled: s.boolean(),
  is_roblox_login_enabled: s.boolean(),
  is_email_verification_enabled: s.boolean(),
  is_basic_authentication_enabled: s.boolean(),
  is_magic_link_login_enabled: s.boolean(),
  is_sign_up_enabled: s.boolean(),
  is_strong_password_enabled: s.boolean(),
  is_multi_factor_auth_enabled: s.boolean(),
  is_mobile_basic_authentication_enabled: s.boolean(),
  is_phone_verification_enabled: s.boolean(),
  is_org_discovery_enabled: s.boolean(),
  is_totp_mfa_enabled: s.boolean(),
  is_email_otp_mfa_enabled: s.boolean(),
  is_sms_otp_mfa_enabled: s.boolean(),
  is_webauthn_enabled: s.boolean(),
  is_mfa_enforced: s.boolean(),
};

/**
 * Whether each channel can deliver (SMTP, the SMS provider), so a login screen offers only the flows that
 * work ("Forgot password?" needs one of them). Kept after the fields above in both messages: gRPC field
 * numbers follow property order, and fields added later must not renumber those already published.
 */
const channelFields = {
  is_email_service_enabled: s.boolean(),
  is_sms_service_enabled: s.boolean(),
};

/**
 * The password rule beyond length and composition (docs/passwords.md): the lowest zxcvbn score a new password
 * must reach, 0 when --password-min-strength is off, so a login screen lists the rule. Last, for the same
 * reason as the channel fields.
 */
const passwordFields = {
  password_min_strength: s.int({ minimum: 0, maximum: 4, description: 'lowest zxcvbn score (1-4) a new password must reach; 0: no minimum (docs/passwords.md)' }),
};

export const Meta = s.object('Meta', { ...metaFields, ...channelFields, ...passwordFields });
export const AdminMeta = s.object('AdminMeta', {
  ...metaFields,
  roles: s.list(s.string()),
  default_roles: s.list(s.string()),
  protected_roles: s.list(s.string()),
  is_multi_factor_auth_service_enabled: s.boolean(),
  ...channelFields,
  // Portcullis's own release; `version` above is the API version (server/version.ts).
  server_version: s.string(),
  ...passwordFields,
});

/**
 * `orgDiscovery`: whether home-realm discovery can route anyone (org-sso/discovery-flag.ts), read from the
 * database by the caller, so that this stays a function of its arguments.
 */
export function buildMeta(config: Config, version: string, orgDiscovery = false): Static<typeof Meta> {
  // Report what the instance does: the same functions the MFA gate asks
  // (accounts/mfa-gate.ts), so a client is never told of a factor the server would not check, and an
  // operator is never told accounts are protected when they are not. Email and SMS codes count only where
  // their channel can deliver (mfa-flags.ts).
  const offered = enabledMfaMethods(config);
  return {
    version,
    client_id: config.clientId ?? '',
    is_google_login_enabled: Boolean(config.social.google),
    is_facebook_login_enabled: Boolean(config.social.facebook),
    is_github_login_enabled: Boolean(config.social.github),
    is_linkedin_login_enabled: Boolean(config.social.linkedin),
    is_apple_login_enabled: Boolean(config.social.apple),
    is_discord_login_enabled: Boolean(config.social.discord),
    is_twitter_login_enabled: Boolean(config.social.twitter),
    is_microsoft_login_enabled: Boolean(config.social.microsoft),
    is_twitch_login_enabled: Boolean(config.social.twitch),
    is_roblox_login_enabled: Boolean(config.social.roblox),
    is_email_verification_enabled: config.enableEmailVerification,
    is_basic_authentication_enabled: config.enableBasicAuthentication,
    is_magic_link_login_enabled: config.enableMagicLinkLogin,
    is_sign_up_enabled: config.enableSignup,
    is_strong_password_enabled: config.enableStrongPassword,
    is_multi_factor_auth_enabled: offered.length > 0,
    is_mobile_basic_authentication_enabled: config.enableMobileBasicAuthentication,
    is_phone_verification_enabled: config.enablePhoneVerification,
    // An enabled organization with a verified domain and an enabled OIDC connection (org_discovery).
    is_org_discovery_enabled: orgDiscovery,
    is_totp_mfa_enabled: offered.includes('totp'),
    is_email_otp_mfa_enabled: offered.includes('email_otp'),
    is_sms_otp_mfa_enabled: offered.includes('sms_otp'),
    is_webauthn_enabled: offered.includes('webauthn'),
    // Enforcement needs a factor to enrol: with none on offer the gate lets everyone through.
    is_mfa_enforced: config.enforceMfa && !config.disableMfa && offered.length > 0,
    is_email_service_enabled: emailConfigurationProblem(config) === undefined,
    is_sms_service_enabled: missingSmsFlags(config).length === 0,
    password_min_strength: config.passwordMinStrength,
  };
}

export function buildAdminMeta(config: Config, version: string, orgDiscovery = false): Static<typeof AdminMeta> {
  return {
    ...buildMeta(config, version, orgDiscovery),
    roles: config.roles,
    default_roles: config.defaultRoles,
    protected_roles: config.protectedRoles,
    // Whether any second factor is offered: the same function buildMeta reports.
    is_multi_factor_auth_service_enabled: enabledMfaMethods(config).length > 0,
    server_version: PORTCULLIS_VERSION,
  };
}
