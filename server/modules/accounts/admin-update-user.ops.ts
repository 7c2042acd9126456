/**
 * The super-admin's `_update_user`, served by GraphQL, REST (/v1/admin/update_user) and gRPC from this
 * definition. An account flow rather than a users operation:
 * `reset_mfa` clears every second factor (modules/mfa), a module above users.
 */
import { defineOperation } from '../../ops/define.ts';
import { UpdateUserRequest, UserSchema, toPublicUser, updateUserAsAdmin } from '../users/index.ts';
import { resetMfa } from '../mfa/index.ts';

export const updateUserOp = defineOperation({
  name: 'update_user',
  admin: true,
  kind: 'mutation',
  description: "Updates a user's profile, contact details, verification flags and roles; reset_mfa clears every second factor and the MFA lock",
  input: UpdateUserRequest,
  output: UserSchema,
  auth: 'admin',
  handler: async (input, ctx) => {
    const user = await updateUserAsAdmin(ctx.em, ctx.deps.config, ctx.deps.clock, input);
    if (input.reset_mfa) {
      await resetMfa(ctx.em, ctx.deps.clock, user);
      await ctx.em.flush();
    }
    return toPublicUser(user);
  },
});
