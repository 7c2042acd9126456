/**
 * A signed-in user's own data (docs/privacy.md): export_my_data, their copy of everything the server keeps
 * about the account (GDPR Art. 15 and 20), and delete_my_account, its erasure (Art. 17). deactivate_account
 * (profile.ops.ts) stays the soft delete it always was; this one removes the account for good.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { s, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import { toPublicUser, type UserRow } from '../users/index.ts';
import { recordEvent } from '../events/index.ts';
import { audit } from '../audit/index.ts';
import { callerUser } from './profile.ops.ts';
import { checkCurrentPassword } from './password-guard.ts';
import { requireRecentAuthentication } from './step-up.ts';
import { personalDataOf } from './personal-data-export.ts';
import { eraseAccount } from './erase-account.ts';

const PersonalDataExport = s.object('PersonalDataExport', {
  file_name: s.string({ description: 'a file name for the document, e.g. portcullis-data-<date>.json' }),
  document: s.string({ description: 'the JSON document (docs/privacy.md#what-is-exported)' }),
});

const DeleteMyAccountRequest = s.object('DeleteMyAccountRequest', {
  password: s.optional(s.string({ maxLength: 1024, description: "the account's current password; without it, a sign-in within the last 5 minutes is needed" })),
});

export const exportMyDataOp = defineOperation({
  name: 'export_my_data',
  admin: false,
  kind: 'query',
  description: "The caller's copy of their personal data, as a JSON document without secrets",
  input: s.object('ExportMyDataRequest', {}),
  output: PersonalDataExport,
  auth: 'user',
  handler: async (_input, ctx) => {
    const user = await callerUser(ctx);
    // Each copy reads every table about the account: a per-account allowance (docs/limits.md#rate-limits).
    await ctx.deps.limits.consume('data_export', user.id);
    const data = await personalDataOf(ctx.em, ctx.deps.clock, user);
    const day = ctx.deps.clock.now().toISOString().slice(0, 10);
    return { file_name: `portcullis-data-${day}.json`, document: JSON.stringify(data, null, 2) };
  },
});

/**
 * The current password, on the one failure budget of login (password-guard.ts), so that a stolen token
 * gains no password oracle here; else a recent sign-in (step-up.ts).
 */
async function requireHolder(ctx: HandlerContext, user: UserRow, password: string | undefined): Promise<void> {
  if (password === undefined || password === '') return requireRecentAuthentication(ctx, 'delete the account');
  if (!user.passwordHash) throw AppError.invalid('this account has no password: sign in again, then delete it within 5 minutes');
  await checkCurrentPassword(ctx, user, password, 'password is not correct');
}

export const deleteMyAccountOp = defineOperation({
  name: 'delete_my_account',
  admin: false,
  kind: 'mutation',
  description: "Erases the caller's account and personal data for good; audit entries stay under a pseudonym",
  input: DeleteMyAccountRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    const user = await callerUser(ctx);
    await requireHolder(ctx, user, input.password);
    const { clock, config } = ctx.deps;
    const publicUser = toPublicUser(user);
    const { pseudonym } = await eraseAccount(ctx.em, config, user);
    for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
    recordEvent(ctx.em, 'user.deleted', { user: publicUser }, clock);
    // Named by its pseudonym, without the address or device the request came from: the entry outlives the account.
    await audit({ ...ctx, req: { ...ctx.req, ip: '', userAgent: undefined } }, {
      action: 'user.account_deleted',
      actor: { type: 'user', id: pseudonym },
      resourceType: 'user',
      resourceId: pseudonym,
    });
    return { message: 'Account deleted successfully' };
  },
});

export const personalDataOperations = [exportMyDataOp, deleteMyAccountOp];
