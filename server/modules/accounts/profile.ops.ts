/**
 * profile, update_profile and deactivate_account (specification part 4.1 and part 3). The caller is the
 * user of the bearer token or session cookie; deactivation is a soft delete that ends every session and
 * token at once.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { NoInput, MessageResponse, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import { User, UserSchema, toPublicUser, updateUserContact, type UserRow } from '../users/index.ts';
import { checkPasswordPolicy, hashPassword, verifyPassword } from '../passwords/index.ts';
import { revokeAllForUser, revokeOtherSessions } from '../tokens/index.ts';
import { recordEvent } from '../events/index.ts';
import { UpdateProfileRequest } from './accounts.schema.ts';
import { sendLinkMail } from './account-mail.ts';

export async function callerUser(ctx: HandlerContext): Promise<UserRow> {
  if (ctx.caller.kind !== 'user') throw AppError.unauthenticated();
  const user = await ctx.em.findOne(User, { id: ctx.caller.userId, deactivatedAt: null });
  if (!user) throw AppError.unauthenticated('user not found');
  return user;
}

export const profileOp = defineOperation({
  name: 'profile',
  admin: false,
  kind: 'query',
  description: "The caller's own User",
  input: NoInput,
  output: UserSchema,
  auth: 'user',
  rest: { method: 'GET' },
  handler: async (_input, ctx) => toPublicUser(await callerUser(ctx)),
});

async function changePassword(ctx: HandlerContext, user: UserRow, input: Static<typeof UpdateProfileRequest>): Promise<void> {
  if (!input.old_password) throw AppError.invalid('old_password is required to set a new password');
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.old_password))) {
    throw AppError.invalid('old password is not correct');
  }
  checkPasswordPolicy(ctx.deps.config, input.new_password!, input.confirm_new_password ?? '');
  user.passwordHash = await hashPassword(input.new_password!);
  // Whoever else holds a session of this account (perhaps why the password changes) is signed out.
  if (ctx.caller.kind === 'user' && ctx.caller.sessionId) {
    await revokeOtherSessions(ctx.em, ctx.deps.clock, user.id, ctx.caller.sessionId);
  }
}

/** Returns true when the change signs the user out (a new email that must be verified first). */
async function changeEmail(ctx: HandlerContext, user: UserRow, email: string): Promise<boolean> {
  const { config, clock } = ctx.deps;
  const updated = await updateUserContact(ctx.em, user, { email }, clock);
  if (!config.enableEmailVerification) {
    updated.emailVerifiedAt = clock.now();
    return false;
  }
  await sendLinkMail(ctx, { event: 'update_email', user: updated, email: updated.email! });
  await revokeAllForUser(ctx.em, clock, user.id);
  for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
  return true;
}

export const updateProfileOp = defineOperation({
  name: 'update_profile',
  admin: false,
  kind: 'mutation',
  description: "Updates the caller's profile, password (with the old one) or email (re-verified when verification is on)",
  input: UpdateProfileRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    const user = await callerUser(ctx);
    if (input.new_password !== undefined) await changePassword(ctx, user, input);
    const names = ['given_name', 'family_name', 'middle_name', 'nickname', 'gender', 'birthdate', 'picture'] as const;
    const fields = { given_name: 'givenName', family_name: 'familyName', middle_name: 'middleName', nickname: 'nickname', gender: 'gender', birthdate: 'birthdate', picture: 'picture' } as const;
    for (const name of names) if (input[name] !== undefined) user[fields[name]] = input[name]!;
    if (input.app_data !== undefined) user.appData = input.app_data;
    if (input.is_multi_factor_auth_enabled !== undefined) user.isMultiFactorAuthEnabled = input.is_multi_factor_auth_enabled;
    if (input.phone_number !== undefined && input.phone_number !== user.phoneNumber) {
      await updateUserContact(ctx.em, user, { phone: input.phone_number }, ctx.deps.clock);
    }
    user.updatedAt = ctx.deps.clock.now();
    const signedOut = input.email !== undefined && input.email.trim().toLowerCase() !== user.email && (await changeEmail(ctx, user, input.email));
    await ctx.em.flush();
    return {
      message: signedOut
        ? 'Profile details updated successfully. Verify the new email address to sign in again'
        : 'Profile details updated successfully.',
    };
  },
});

export const deactivateAccountOp = defineOperation({
  name: 'deactivate_account',
  admin: false,
  kind: 'mutation',
  description: "Soft-deletes the caller's account and ends all of its sessions and tokens",
  input: NoInput,
  output: MessageResponse,
  auth: 'user',
  handler: async (_input, ctx) => {
    const user = await callerUser(ctx);
    const { clock, config } = ctx.deps;
    user.deactivatedAt = clock.now();
    user.updatedAt = user.deactivatedAt;
    await revokeAllForUser(ctx.em, clock, user.id);
    for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
    recordEvent(ctx.em, 'user.deactivated', { user: toPublicUser(user) }, clock);
    await ctx.em.flush();
    return { message: 'Account deactivated successfully' };
  },
});

export const profileOperations = [profileOp, updateProfileOp, deactivateAccountOp];
