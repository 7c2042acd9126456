/**
 * The admin GraphQL operations the console calls (specification part 4.2; reference.md "Requests"): the
 * same `_`-prefixed fields any integrator can call with the admin cookie. The session list is
 * `_user_sessions` (server/modules/sessions/admin-sessions.ops.ts).
 */

const USER_FIELDS = `id email email_verified phone_number phone_number_verified given_name family_name nickname
  signup_methods roles created_at updated_at revoked_timestamp is_multi_factor_auth_enabled
  enrolled_mfa_methods mfa_locked_at has_skipped_mfa_setup_at`;
const PAGINATION_FIELDS = 'pagination { limit page offset total }';

export const ADMIN_SESSION = 'query AdminSession { _admin_session { message } }';
export const ADMIN_LOGIN = 'mutation AdminLogin($params: AdminLoginRequest!) { _admin_login(params: $params) { message } }';
export const ADMIN_LOGOUT = 'mutation AdminLogout { _admin_logout { message } }';

export const ADMIN_META = `query AdminMeta { _admin_meta {
  version server_version client_id roles default_roles protected_roles
  is_basic_authentication_enabled is_mobile_basic_authentication_enabled is_magic_link_login_enabled is_sign_up_enabled
  is_strong_password_enabled is_email_verification_enabled is_phone_verification_enabled
  is_multi_factor_auth_enabled is_multi_factor_auth_service_enabled is_mfa_enforced is_totp_mfa_enabled
  is_email_otp_mfa_enabled is_sms_otp_mfa_enabled is_webauthn_enabled is_org_discovery_enabled
  is_google_login_enabled is_facebook_login_enabled is_github_login_enabled is_linkedin_login_enabled
  is_apple_login_enabled is_discord_login_enabled is_twitter_login_enabled is_microsoft_login_enabled
  is_twitch_login_enabled is_roblox_login_enabled is_email_service_enabled is_sms_service_enabled
} }`;

export const USERS = `query Users($params: UsersRequest!) { _users(params: $params) { users { ${USER_FIELDS} } ${PAGINATION_FIELDS} } }`;
export const USER = `query User($params: GetUserRequest!) { _user(params: $params) { ${USER_FIELDS} } }`;
export const UPDATE_USER = `mutation UpdateUser($params: UpdateUserRequest!) { _update_user(params: $params) { ${USER_FIELDS} } }`;
export const DELETE_USER = 'mutation DeleteUser($params: DeleteUserRequest!) { _delete_user(params: $params) { message } }';
export const REVOKE_ACCESS = 'mutation RevokeAccess($param: UpdateAccessRequest!) { _revoke_access(param: $param) { message } }';
export const ENABLE_ACCESS = 'mutation EnableAccess($param: UpdateAccessRequest!) { _enable_access(param: $param) { message } }';
export const INVITE_MEMBERS = `mutation InviteMembers($params: InviteMembersRequest!) {
  _invite_members(params: $params) { message Users { id email } }
}`;

export const USER_SESSIONS = `query UserSessions($params: UserSessionsRequest!) { _user_sessions(params: $params) {
  sessions { id login_method roles scope created_at auth_time expires_at revoked_at } ${PAGINATION_FIELDS}
} }`;
export const REVOKE_SESSION = 'mutation RevokeSession($params: RevokeSessionRequest!) { _revoke_session(params: $params) { message } }';

export const VERIFICATION_REQUESTS = `query VerificationRequests($params: PaginatedRequest) { _verification_requests(params: $params) {
  verification_requests { id identifier email expires created_at redirect_uri } ${PAGINATION_FIELDS}
} }`;
