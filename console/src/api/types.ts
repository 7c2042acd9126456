/** Shapes of the admin GraphQL answers the console reads (reference.md "Types"; timestamps are Unix seconds). */

export interface Pagination {
  limit: number;
  page: number;
  offset: number;
  total: number;
}

export interface PageRequest {
  page: number;
  limit: number;
}

export interface AdminUser {
  id: string;
  email?: string | null;
  email_verified: boolean;
  phone_number?: string | null;
  phone_number_verified: boolean;
  given_name?: string | null;
  family_name?: string | null;
  nickname?: string | null;
  signup_methods: string;
  roles: string[];
  created_at?: number | null;
  updated_at?: number | null;
  revoked_timestamp?: number | null;
  is_multi_factor_auth_enabled?: boolean | null;
  /** Verified second factors: totp, webauthn, email_otp, sms_otp (reference.md User). */
  enrolled_mfa_methods?: string[] | null;
  /** When the user reported losing their only factors (lock_mfa); an admin reset clears it. */
  mfa_locked_at?: number | null;
  has_skipped_mfa_setup_at?: number | null;
}

export interface UserSession {
  id: string;
  login_method: string;
  roles: string[];
  scope: string[];
  created_at: number;
  auth_time: number;
  expires_at: number;
  revoked_at?: number | null;
}

export interface VerificationRequest {
  id: string;
  identifier?: string | null;
  email?: string | null;
  expires?: number | null;
  created_at?: number | null;
  redirect_uri?: string | null;
}

/** `_admin_meta`: meta plus the role configuration; every flag is a boolean. */
export interface AdminMeta {
  /** The API version this server is compatible with (the released 2.x line's). */
  version: string;
  /** Portcullis's own release. */
  server_version: string;
  client_id: string;
  roles: string[];
  default_roles: string[];
  protected_roles: string[];
  [flag: `is_${string}`]: boolean;
}

export interface MessageAnswer {
  message: string;
}
