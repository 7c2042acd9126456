/**
 * Who registers a passkey (docs/operations.md, "auth or MFA cookie"; docs/api-overview.md#authentication): a signed-in user
 * adding one, or a user whose sign-in waits on a first-time MFA offer (the `user_or_mfa_cookie` authenticator
 * takes only an `offer`-stage cookie, so a password alone cannot enrol a passkey that would then pass an
 * enrolled user's challenge). An email or phone number in the request (the SDK sends the login's) must name
 * that same user; an unknown address and another account's answer alike.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserById, findUserByPhone, type UserRow } from '../users/index.ts';
import { MFA_SESSION_REFUSAL } from '../mfa/index.ts';

export interface Registrant {
  user: UserRow;
  /** The offer's challenge id when the registration answers a first-time offer. */
  mfaChallengeId?: string;
}

export async function registrant(ctx: HandlerContext, named: { email?: string; phone_number?: string }): Promise<Registrant> {
  const { caller, em } = ctx;
  let registrantOf: Registrant | undefined;
  if (caller.kind === 'user') {
    const user = await findUserById(em, caller.userId);
    if (user) registrantOf = { user };
  } else if (caller.kind === 'mfa' && caller.stage === 'offer') {
    const user = await findUserById(em, caller.userId);
    if (user) registrantOf = { user, mfaChallengeId: caller.challengeId };
  }
  if (!registrantOf) throw AppError.unauthenticated(caller.kind === 'mfa' ? MFA_SESSION_REFUSAL : 'unauthorized');
  if (registrantOf.user.revokedAt) throw AppError.forbidden('user access has been revoked');
  const namedId = named.email
    ? (await findUserByEmail(em, named.email))?.id
    : named.phone_number
      ? (await findUserByPhone(em, named.phone_number))?.id
      : registrantOf.user.id;
  if (namedId !== registrantOf.user.id) throw AppError.forbidden('the email or phone number is not the signed-in account');
  return registrantOf;
}
