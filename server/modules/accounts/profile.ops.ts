/**
 * profile, update_profile and deactivate_account (docs/operations.md and docs/api-overview.md#states-and-transitions). The caller is the
 * user of the bearer token or session cookie; deactivation is a soft delete that ends every session and
 * token at once.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { NoInput, MessageResponse, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import {
  User, UserSchema, markEmailVerified, normaliseEmail, normalisePhoneNumber, toPublicUser, updateUserContact, type UserRow,
} from '../users/index.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import { personalWordsOfUser } from './personal-words.ts';
import { revokeAllForUser, revokeOtherSessions } from '../tokens/index.ts';
import { recordEvent } from '../events/index.ts';
import { audit } from '../audit/index.ts';
import { UpdateProfileRequest } from './accounts.schema.ts';
import { sendLinkMail } from './account-mail.ts';
import { checkCurrentPassword } from './password-guard.ts';
import { requireRecentAuthentication, STEP_UP_SECONDS } from './step-up.ts';

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

type UpdateProfileInput = Static<typeof UpdateProfileRequest>;

/** Which credential-bearing fields this request would really change. */
function credentialChanges(user: UserRow, input: UpdateProfileInput): string[] {
  const changes: string[] = [];
  if (input.new_password !== undefined) changes.push('password');
  if (input.email !== undefined && normaliseEmail(input.email) !== user.email) changes.push('email');
  if (input.phone_number !== undefined && normalisePhoneNumber(input.phone_number) !== user.phoneNumber) changes.push('phone number');
  return changes;
}

/**
 * Re-authentication before the account's credentials change (step-up.ts; OWASP ASVS 3.7.1): whoever holds a
 * stolen token or an unlocked browser must not be able to move the email or phone number (and with them
 * every recovery channel) or set a password. The current password, or, for an account that has none (magic
 * link), a recent sign-in.
 */
async function requireProofOfHolder(ctx: HandlerContext, user: UserRow, input: UpdateProfileInput, changes: string[]): Promise<void> {
  const what = changes.join(', ');
  if (user.passwordHash) {
    if (!input.old_password) throw AppError.invalid(`old_password is required to change the ${what}`);
    await checkCurrentPassword(ctx, user, input.old_password, 'old password is not correct');
    return;
  }
  const minutes = STEP_UP_SECONDS / 60;
  await requireRecentAuthentication(ctx, `change the ${what}`, `this account has no password, so a login within the last ${minutes} minutes is required`);
}

async function changePassword(ctx: HandlerContext, user: UserRow, input: UpdateProfileInput): Promise<void> {
  await checkPasswordPolicy(ctx.deps.config, input.new_password!, input.confirm_new_password ?? '', personalWordsOfUser(user));
  user.passwordHash = await hashPassword(input.new_password!);
  // The holder chose this one: an administrator's initial password is replaced (users/user.entity.ts).
  user.passwordChangeRequiredAt = null;
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
    // email_verified in the User object stays true as before (SDK compatibility), but nothing proved the
    // mailbox: no federated sign-in or SCIM links to this account by this address, and no ID token, /userinfo
    // or SAML assertion states it verified (users/address-proof.ts).
    markEmailVerified(updated, 'unproven', clock.now());
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
  description: "Updates the caller's profile; the email, phone number or password only with the current password (or a fresh login)",
  input: UpdateProfileRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    const user = await callerUser(ctx);
    // Checked before anything is written: a refused request changes nothing.
    const changes = credentialChanges(user, input);
    if (changes.length > 0) await requireProofOfHolder(ctx, user, input, changes);
    if (input.new_password !== undefined) await changePassword(ctx, user, input);
    const names = ['given_name', 'family_name', 'middle_name', 'nickname', 'gender', 'birthdate', 'picture'] as const;
    const fields = { given_name: 'givenName', family_name: 'familyName', middle_name: 'middleName', nickname: 'nickname', gender: 'gender', birthdate: 'birthdate', picture: 'picture' } as const;
    for (const name of names) if (input[name] !== undefined) user[fields[name]] = input[name]!;
    if (input.app_data !== undefined) user.appData = input.app_data;
    if (input.is_multi_factor_auth_enabled !== undefined) user.isMultiFactorAuthEnabled = input.is_multi_factor_auth_enabled;
    if (changes.includes('phone number')) {
      await updateUserContact(ctx.em, user, { phone: input.phone_number }, ctx.deps.clock);
    }
    user.updatedAt = ctx.deps.clock.now();
    const signedOut = changes.includes('email') && (await changeEmail(ctx, user, input.email!));
    // The credential changes are security events (docs/api-overview.md#resources-and-fields, "AuditLog"); the entries name no value.
    const audited: string[] = [];
    if (input.new_password !== undefined) audited.push('user.password_changed');
    if (changes.includes('email')) audited.push('user.email_changed');
    if (changes.includes('phone number')) audited.push('user.phone_number_changed');
    for (const action of audited) {
      await audit(ctx, { action, actor: { type: 'user', id: user.id, email: user.email }, resourceType: 'user', resourceId: user.id });
    }
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
    // Step-up (step-up.ts): a stolen session must not be able to end the owner's account.
    await requireRecentAuthentication(ctx, 'deactivate the account');
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
