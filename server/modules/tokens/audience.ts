/**
 * Which tokens an acceptor takes (README "Security", token audience). Every token of this server says whom it
 * was issued for: the instance client (aud = --client-id, no azp), or a registered client (aud = azp = its
 * client_id, claims.ts Grant.clientId). Every place that accepts a token names the audience it accepts,
 * because a token is only good for what it was issued for (RFC 9068 section 4: a resource server must check
 * that aud names it; RFC 9700 section 2.3, audience-restricted access tokens):
 *
 * - FIRST_PARTY: the first-party API (the `user` auth kind of the /v1 account operations, GraphQL and gRPC).
 *   A registered client's token speaks for the user only within what the user consented to, which is never
 *   the user's own account: it must not read or change the profile, or add a passkey that then signs in.
 * - ANY_CLIENT: where a relying party or resource server checks a token (/userinfo, OpenID Connect Core
 *   section 5.3; validate_jwt_token).
 * - issuedTo(client): where one client acts on its own tokens: the refresh grant (RFC 6749 section 6) and
 *   introspection (RFC 7662 section 2.2: a client sees only tokens issued to it).
 */
import { AppError } from '../../kernel/errors.ts';
import type { Claims } from './jwt.ts';

export type Audience =
  | { readonly accepts: 'first_party' }
  | { readonly accepts: 'any_client' }
  /** clientId undefined: the instance client. */
  | { readonly accepts: 'issued_to'; readonly clientId: string | undefined };

export const FIRST_PARTY: Audience = Object.freeze({ accepts: 'first_party' });
export const ANY_CLIENT: Audience = Object.freeze({ accepts: 'any_client' });

/** Tokens issued to `clientId`, a registered client, or to the instance client when undefined. */
export function issuedTo(clientId: string | undefined): Audience {
  return { accepts: 'issued_to', clientId };
}

/**
 * The registered client a token was issued to (its azp, claims.ts), or undefined for the instance client's
 * own tokens (no azp, or azp = --client-id).
 */
export function registeredClientOf(claims: Claims, instanceClientId: string | undefined): string | undefined {
  const azp = typeof claims.azp === 'string' ? claims.azp : '';
  return azp !== '' && azp !== instanceClientId ? azp : undefined;
}

/** Whether `audience` takes a token with these (verified) claims. */
export function audienceAccepts(audience: Audience, claims: Claims, instanceClientId: string | undefined): boolean {
  const registered = registeredClientOf(claims, instanceClientId);
  switch (audience.accepts) {
    case 'first_party':
      return registered === undefined;
    case 'any_client':
      return true;
    case 'issued_to':
      return registered === audience.clientId;
  }
}

const REFUSALS: Record<Audience['accepts'], string> = {
  first_party: 'invalid token: it was issued to another application, not to this API; sign in here to get one',
  any_client: 'invalid token',
  issued_to: 'invalid token: it was not issued to this client',
};

/** Throws AppError('unauthenticated') when `audience` does not take the token (RFC 6750 section 3.1 invalid_token). */
export function requireAudience(audience: Audience, claims: Claims, instanceClientId: string | undefined): void {
  if (!audienceAccepts(audience, claims, instanceClientId)) throw AppError.unauthenticated(REFUSALS[audience.accepts]);
}
