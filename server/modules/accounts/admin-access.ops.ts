/**
 * Super-admin account operations (docs/operations.md and docs/api-overview.md#states-and-transitions): delete_user, revoke_access,
 * enable_access and invite_members (create_user, in its own file, is listed with them). Revocation takes
 * effect at once: the user's sessions and tokens are revoked in the same transaction, and the authenticators
 * check revoked_timestamp on every call.
 */
import { defineOperation } from '../../ops/define.ts';
import { s, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserById, rolesForSignup, toPublicUser, UserSchema } from '../users/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { recordEvent } from '../events/index.ts';
import { eraseAccount } from './erase-account.ts';
import { sendLinkMail } from './account-mail.ts';
import { createAccount } from './create-account.ts';
import { createUserOp } from './admin-create-user.ops.ts';

const DeleteUserRequest = s.object('DeleteUserRequest', { id: s.string({ minLength: 1 }) });
const UpdateAccessRequest = s.object('UpdateAccessRequest', { user_id: s.string({ minLength: 1 }) });
const InviteMembersRequest = s.object('InviteMembersRequest', {
  emails: s.list(s.string(), { minItems: 1, maxItems: 100 }),
  redirect_uri: s.optional(s.string()),
});
const InviteMembersResponse = s.object('InviteMembersResponse', { message: s.string(), Users: s.list(UserSchema) });

export const deleteUserOp = defineOperation({
  name: 'delete_user',
  admin: true,
  kind: 'mutation',
  description: "Erases a user by id with all of its personal data; audit entries stay under a pseudonym (docs/privacy.md)",
  input: DeleteUserRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    const user = await findUserById(ctx.em, input.id, { includeDeactivated: true });
    if (!user) throw AppError.notFound('user not found');
    const publicUser = toPublicUser(user);
    // The whole erasure (erase-account.ts); the pipeline's audit entry names the account by its pseudonym.
    await eraseAccount(ctx.em, ctx.deps.config, user);
    recordEvent(ctx.em, 'user.deleted', { user: publicUser }, ctx.deps.clock);
    return { message: 'User deleted successfully' };
  },
});

function accessOp(name: 'revoke_access' | 'enable_access') {
  const revoke = name === 'revoke_access';
  return defineOperation({
    name,
    admin: true,
    kind: 'mutation',
    description: revoke ? 'Revokes a user\'s access: sign-in and existing tokens stop working at once' : 'Restores a revoked user\'s access',
    input: UpdateAccessRequest,
    output: MessageResponse,
    auth: 'admin',
    graphql: { argName: 'param' },
    handler: async (input, ctx) => {
      const { clock } = ctx.deps;
      const user = await findUserById(ctx.em, input.user_id, { includeDeactivated: true });
      if (!user) throw AppError.notFound('user not found');
      user.revokedAt = revoke ? clock.now() : null;
      // The administrator's revocation is theirs to lift: an organization's SCIM provider cannot undo it
      // (scim-users.service.ts); enable_access lifts any revocation, the provider's too.
      user.revokedBy = revoke ? 'admin' : null;
      user.updatedAt = clock.now();
      if (revoke) await revokeAllForUser(ctx.em, clock, user.id);
      recordEvent(ctx.em, revoke ? 'user.access_revoked' : 'user.access_enabled', { user: toPublicUser(user) }, clock);
      await ctx.em.flush();
      return { message: revoke ? 'user access revoked successfully' : 'user access enabled successfully' };
    },
  });
}

export const inviteMembersOp = defineOperation({
  name: 'invite_members',
  admin: true,
  kind: 'mutation',
  description: 'Creates accounts for new emails and sends each an invitation link to set a password',
  input: InviteMembersRequest,
  output: InviteMembersResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    const { config } = ctx.deps;
    if (!config.enableBasicAuthentication && !config.enableMagicLinkLogin) {
      throw AppError.precondition('invitations need basic authentication or magic link login');
    }
    const invited = [];
    for (const email of [...new Set(input.emails.map((e) => e.trim().toLowerCase()))]) {
      // Existing accounts are skipped, not re-invited: an invitation never touches a live account.
      if (await findUserByEmail(ctx.em, email, { includeDeactivated: true })) continue;
      const user = await createAccount(ctx, { email, signupMethods: ['basic_auth'], roles: rolesForSignup(config) });
      await sendLinkMail(ctx, { event: 'invite_member', user, email, redirectUri: input.redirect_uri });
      invited.push(toPublicUser(user));
    }
    return { message: invited.length ? `Invited ${invited.length} member(s) successfully` : 'No new members to invite', Users: invited };
  },
});

// create_user (admin-create-user.ops.ts) last: the operations before it keep their place in the registry.
export const adminAccessOperations = [deleteUserOp, accessOp('revoke_access'), accessOp('enable_access'), inviteMembersOp, createUserOp];
