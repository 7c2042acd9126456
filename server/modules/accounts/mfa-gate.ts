/**
 * The MFA gate (specification part 3: the access token is withheld while a challenge is pending; part 4.1
 * login "returns ... MFA challenge flags"). When the first factor of a sign-in is done (a password, an
 * emailed link, a texted code), a user with a verified factor this instance offers gets a challenge instead
 * of tokens: the `mfa` cookie naming it (part 5) and `should_show_totp_screen`. verify_otp completes it
 * (accounts/mfa-verify.ts) with the login the first step decided. Everyone else signs in as before, so
 * integrations of users without a second factor see no change.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { mfaCookie } from '../../kernel/cookies.ts';
import type { UserRow } from '../users/user.entity.ts';
import { hasEnrolledMethod, openChallenge, totpEnabled, type NewChallenge } from '../mfa/index.ts';
import type { AuthResponse } from './accounts.schema.ts';
import type { LoginStep } from './login-flow.ts';

export const MFA_CHALLENGE_MESSAGE = 'Proceed to the TOTP verification screen';

/** The challenge answer when `user` must pass a second factor; undefined when the sign-in may complete. */
export async function secondFactorChallenge(ctx: HandlerContext, user: UserRow, login: Omit<NewChallenge, 'userId' | 'stage'>): Promise<Static<typeof AuthResponse> | undefined> {
  const { config } = ctx.deps;
  if (!totpEnabled(config) || !hasEnrolledMethod(user, 'totp')) return undefined;
  const cookie = await openChallenge(ctx.em, ctx.deps, { ...login, userId: user.id, stage: 'verify' });
  ctx.effects.setCookie(mfaCookie(config, cookie));
  return { message: MFA_CHALLENGE_MESSAGE, should_show_totp_screen: true };
}

/** The password login's step, after the account checks and before the tokens. */
export const requireSecondFactor: LoginStep = async (state, ctx) => {
  state.response = await secondFactorChallenge(ctx, state.user!, { roles: state.roles!, scope: state.scope!, loginMethod: state.method! });
};
