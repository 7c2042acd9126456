/**
 * One grant type of POST /oauth/token (RFC 6749 section 4; RFC 7523 section 2.1). The endpoint
 * (token.endpoint.ts) authenticates the client first, then hands the request to the grant named by
 * grant_type; discovery's grant_types_supported is the list of grants in grants/index.ts, so a grant is
 * advertised exactly when it is served. A grant answers the token response (RFC 6749 section 5.1) and
 * refuses by throwing an OAuthError (section 5.2).
 */
import type { HandlerContext } from '../../../ops/define.ts';
import type { AuthenticatedClient } from '../client-auth.ts';
import type { OAuthBody } from '../oauth-body.ts';

export interface GrantRequest {
  readonly ctx: HandlerContext;
  readonly body: OAuthBody;
  /** Who called: the instance client, a registered client, or a public client that sent client_id alone. */
  readonly client: AuthenticatedClient;
  /**
   * The key thumbprint of the request's valid DPoP proof (RFC 9449 section 5; ../dpop/token-request-proof.ts),
   * undefined for a bearer request: the access token the grant issues is bound to it (cnf.jkt, section 6.1)
   * and its token_type is DPoP.
   */
  readonly dpopJkt?: string;
}

export interface Grant {
  /** The grant_type value (RFC 6749 section 4.1.3, 4.4.2, 6; RFC 7523 section 2.1). */
  readonly grantType: string;
  handle(input: GrantRequest): Promise<Record<string, unknown>>;
}
