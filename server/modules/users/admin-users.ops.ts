/**
 * Admin user operations (`_users`, `_user`, `_update_user`), served by GraphQL, REST (/v1/admin/users,
 * /v1/admin/user, /v1/admin/update_user) and gRPC from these definitions.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { defineHook } from '../../kernel/hooks.ts';
import { defineOperation } from '../../ops/define.ts';
import { pageOf, paginationOf } from '../../ops/pagination.ts';
import type { UserRow } from './user.entity.ts';
import { UserSchema, toPublicUser } from './user.schema.ts';
import { GetUserRequest, UpdateUserRequest, Users, UsersRequest } from './admin-users.schema.ts';
import { getUserForAdmin, updateUserAsAdmin } from './admin-users.service.ts';
import { searchUsers } from './user-search.ts';

/**
 * An admin's update_user asked for reset_mfa: the mfa module, above this one, clears every second factor and
 * the MFA lock on the user row (the caller flushes). Required: the answer says the factors are gone.
 */
export const onAdminMfaReset = defineHook<[em: EntityManager, clock: Clock, user: UserRow]>('onAdminMfaReset', { required: true });

export const usersOp = defineOperation({
  name: 'users',
  admin: true,
  kind: 'query',
  description: 'Lists users, newest first, optionally filtered by a case-insensitive substring',
  input: UsersRequest,
  output: Users,
  auth: 'admin',
  handler: async (input, ctx) => {
    const window = pageOf(input.pagination);
    const { users, total } = await searchUsers(ctx.em, window, input.query);
    return { users: users.map((user) => toPublicUser(user)), pagination: paginationOf(window, total) };
  },
});

export const userOp = defineOperation({
  name: 'user',
  admin: true,
  kind: 'query',
  description: 'Reads one user by id or by email',
  input: GetUserRequest,
  output: UserSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicUser(await getUserForAdmin(ctx.em, input)),
});

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
      await onAdminMfaReset.run(ctx.em, ctx.deps.clock, user);
      await ctx.em.flush();
    }
    return toPublicUser(user);
  },
});

export const userAdminOperations = [usersOp, userOp, updateUserOp];
