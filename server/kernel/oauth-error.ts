/**
 * A refusal in the shape of OAuth 2.0 (RFC 6749 section 5.2: `{error, error_description}`, 400, or 401 for
 * invalid_client) and of bearer-token resources (RFC 6750 section 3: invalid_token, insufficient_scope, with a
 * `WWW-Authenticate: Bearer` challenge). Thrown by endpoint handlers (ops/endpoint.ts); the transport renders
 * it at the edge for endpoints whose errors are 'oauth' (transports/http/endpoints.ts), never cached
 * (RFC 6749 section 5.1).
 */
import { AppError } from './errors.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error'
  // RFC 6749 section 4.1.2.1 names it for the authorization endpoint; JSON endpoints answer it with 503 too.
  | 'temporarily_unavailable'
  | 'invalid_token'
  | 'insufficient_scope'
  // RFC 7591 section 3.2.2: dynamic client registration's refusals of the metadata sent.
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  // RFC 8628 section 3.5: the device access token request's answers while the user has not approved.
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  // RFC 8707 section 2: a resource indicator that is invalid or not allowed for the client.
  | 'invalid_target'
  // RFC 9449 sections 5 and 7.1: a DPoP proof that fails a check.
  | 'invalid_dpop_proof';

/** The Basic challenge of invalid_client when the client tried HTTP Basic (RFC 6749 section 5.2). */
export const BASIC_CHALLENGE = 'Basic realm="oauth", charset="UTF-8"';

export class OAuthError extends AppError {
  readonly status: number;
  /** undefined only for RFC 6750 section 3.1's answer to a request that presented no token at all. */
  readonly code: OAuthErrorCode | undefined;
  /** The WWW-Authenticate header value, when the refusal carries one. */
  readonly challenge?: string;

  constructor(status: number, code: OAuthErrorCode | undefined, description: string, challenge?: string) {
    super(status === 401 ? 'unauthenticated' : status === 403 ? 'permission_denied' : 'invalid_argument', description);
    this.name = 'OAuthError';
    this.status = status;
    this.code = code;
    this.challenge = challenge;
  }

  /** RFC 6749 section 5.2 invalid_request, 400. */
  static invalidRequest(description: string): OAuthError {
    return new OAuthError(400, 'invalid_request', description);
  }

  /** invalid_client, 401, with the Basic challenge when the client authenticated with HTTP Basic. */
  static invalidClient(description: string, usedBasic: boolean): OAuthError {
    return new OAuthError(401, 'invalid_client', description, usedBasic ? BASIC_CHALLENGE : undefined);
  }

  /** The JSON body: `{error, error_description}`, or `{error_description}` without a code. */
  body(): Record<string, string> {
    return this.code ? { error: this.code, error_description: this.message } : { error_description: this.message };
  }
}
