/**
 * The Logout Token (OpenID Connect Back-Channel Logout 1.0 §2.4): a JWT signed with the ID tokens' key, with
 * iss, aud (the client_id), iat, a short exp, jti, sub, sid and the back-channel logout event, and never a
 * nonce (§2.4: its presence would let it pass as an ID token). Explicitly typed `logout+jwt` (§2.4, RFC 8725 §3.11).
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Deps } from '../../../kernel/deps.ts';
import { issuerOf } from '../../tokens/index.ts';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Long enough for a retried delivery's token to be fresh: each attempt signs a new one. */
export const LOGOUT_TOKEN_SECONDS = 120;

export interface LogoutSubject {
  clientId: string;
  userId: string;
  sid: string;
}

export function signLogoutToken(deps: Pick<Deps, 'config' | 'keys' | 'clock'>, subject: LogoutSubject): Promise<string> {
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const { keys } = deps;
  return new SignJWT({ sub: subject.userId, sid: subject.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
    .setProtectedHeader({ alg: keys.alg, ...(keys.kid ? { kid: keys.kid } : {}), typ: 'logout+jwt' })
    .setIssuer(issuerOf(deps.config))
    .setAudience(subject.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + LOGOUT_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(keys.signKey);
}
