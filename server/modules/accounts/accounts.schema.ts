/**
 * Request and response objects of the account operations, named exactly as the existing client SDK sends
 * them (docs/sdk-compatibility.md: SignUpRequest, LoginRequest, ...; fields in docs/operations.md).
 */
import { s } from '../../ops/schema.ts';
import { UserSchema } from '../users/index.ts';
import { MAX_CHECKS, RequiredRelation } from '../fga/index.ts';

const optionalString = () => s.optional(s.string());
const optionalStrings = () => s.optional(s.list(s.string()));
/** docs/operations.md#session: `required_relations?` [{relation, object}], checked through the FGA engine (at most as many as one check_permissions call). */
const requiredRelations = () => s.optional(s.list(RequiredRelation, { maxItems: MAX_CHECKS }));

export const AuthResponse = s.object('AuthResponse', {
  message: s.string(),
  should_show_email_otp_screen: s.optional(s.boolean()),
  should_show_mobile_otp_screen: s.optional(s.boolean()),
  should_show_totp_screen: s.optional(s.boolean()),
  should_offer_webauthn_mfa_verify: s.optional(s.boolean()),
  should_offer_mfa_setup: s.optional(s.boolean()),
  should_offer_webauthn_mfa_setup: s.optional(s.boolean()),
  should_offer_email_otp_mfa_setup: s.optional(s.boolean()),
  should_offer_sms_otp_mfa_setup: s.optional(s.boolean()),
  access_token: optionalString(),
  id_token: optionalString(),
  refresh_token: optionalString(),
  /** Seconds until the access token expires (docs/sdk-compatibility.md: the SDK schedules refreshes with it). */
  expires_in: s.optional(s.int64()),
  user: s.optional(UserSchema),
  authenticator_scanner_image: optionalString(),
  authenticator_secret: optionalString(),
  authenticator_recovery_codes: optionalStrings(),
});

const profileFields = {
  given_name: optionalString(),
  family_name: optionalString(),
  middle_name: optionalString(),
  nickname: optionalString(),
  gender: optionalString(),
  birthdate: optionalString(),
  phone_number: optionalString(),
  picture: optionalString(),
  app_data: s.optional(s.map()),
};

export const SignUpRequest = s.object('SignUpRequest', {
  email: optionalString(),
  ...profileFields,
  password: s.string(),
  confirm_password: s.string(),
  roles: optionalStrings(),
  scope: optionalStrings(),
  redirect_uri: optionalString(),
  state: optionalString(),
  // Accepted and ignored, as the JavaScript SDK sends it (docs/sdk-compatibility.md): MFA enrolment is the user's own choice after signup.
  is_multi_factor_auth_enabled: s.optional(s.boolean()),
});

export const LoginRequest = s.object('LoginRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  password: s.string(),
  roles: optionalStrings(),
  scope: optionalStrings(),
  state: optionalString(),
});

export const MagicLinkLoginRequest = s.object('MagicLinkLoginRequest', {
  email: s.string(),
  roles: optionalStrings(),
  scope: optionalStrings(),
  state: optionalString(),
  redirect_uri: optionalString(),
});

export const VerifyEmailRequest = s.object('VerifyEmailRequest', { token: s.string(), state: optionalString() });

export const ResendVerifyEmailRequest = s.object('ResendVerifyEmailRequest', {
  email: s.string(),
  identifier: s.string(),
  state: optionalString(),
});

export const ForgotPasswordRequest = s.object('ForgotPasswordRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
  redirect_uri: optionalString(),
});

export const ForgotPasswordResponse = s.object('ForgotPasswordResponse', {
  message: s.string(),
  should_show_mobile_otp_screen: s.optional(s.boolean()),
});

export const ResetPasswordRequest = s.object('ResetPasswordRequest', {
  token: optionalString(),
  otp: optionalString(),
  phone_number: optionalString(),
  password: s.string(),
  confirm_password: s.string(),
});

export const UpdateProfileRequest = s.object('UpdateProfileRequest', {
  old_password: optionalString(),
  new_password: optionalString(),
  confirm_new_password: optionalString(),
  email: optionalString(),
  ...profileFields,
  is_multi_factor_auth_enabled: s.optional(s.boolean()),
});

export const SessionQueryRequest = s.object('SessionQueryRequest', {
  roles: optionalStrings(),
  scope: optionalStrings(),
  state: optionalString(),
  required_relations: requiredRelations(),
});

export const ValidateJWTTokenRequest = s.object('ValidateJWTTokenRequest', {
  token_type: s.string(),
  token: s.string(),
  roles: optionalStrings(),
  required_relations: requiredRelations(),
  // RFC 8707 / RFC 9068 section 4: a resource server names itself; the token's aud must include it.
  audience: s.optional(s.string({ maxLength: 2048, description: 'the resource (RFC 8707) the token must name in aud; a resource server passes its own' })),
  // RFC 9449 section 7.1 (docs/dpop.md): a resource server that received `Authorization: DPoP` passes the proof and its request.
  dpop_proof: s.optional(s.string({ maxLength: 8192, description: 'the DPoP header of the request (RFC 9449), required for a DPoP-bound token' })),
  http_method: s.optional(s.string({ maxLength: 16, description: 'the HTTP method of the request the DPoP proof came with' })),
  http_uri: s.optional(s.string({ maxLength: 2048, description: 'the absolute URI of the request the DPoP proof came with (its query is ignored)' })),
});

export const ValidateJWTTokenResponse = s.object('ValidateJWTTokenResponse', {
  is_valid: s.boolean(),
  claims: s.optional(s.map()),
});

export const ValidateSessionRequest = s.object('ValidateSessionRequest', {
  /** The session cookie value; when absent (the argument is nullable) the request's own cookie is used. */
  cookie: optionalString(),
  roles: optionalStrings(),
  required_relations: requiredRelations(),
});

export const ValidateSessionResponse = s.object('ValidateSessionResponse', {
  is_valid: s.boolean(),
  user: UserSchema,
});

export const RevokeRequest = s.object('RevokeRequest', { refresh_token: s.string() });

export const VerifyOTPRequest = s.object('VerifyOTPRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  otp: s.string(),
  is_totp: s.optional(s.boolean()),
  state: optionalString(),
  /**
   * With the `mfa` cookie: which code factor the code is for (`email_otp` or `sms_otp`), for a user with
   * both; without it the newest code sent decides. An addition to the released API's fields; last, so that the
   * gRPC field numbers before it are unchanged.
   */
  mfa_method: s.optional(s.string({ maxLength: 16, description: 'email_otp or sms_otp: the code factor a code is for (with the mfa cookie)' })),
});

export const ResendOTPRequest = s.object('ResendOTPRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
  /** With the `mfa` cookie: the code factor to send a code for (`email_otp` or `sms_otp`); see VerifyOTPRequest. */
  mfa_method: s.optional(s.string({ maxLength: 16, description: 'email_otp or sms_otp: the code factor to send a code for (with the mfa cookie)' })),
});
