/**
 * Admin user reads (`_users`, `_user`), served by GraphQL, REST
 * (/v1/admin/users, /v1/admin/user) and gRPC from these definitions. `_update_user` also clears second
 * factors, so it is an account flow above this module (accounts/admin-update-user.ops.ts).
 */
import { defineOperation } from '../../ops/define.ts';
import { pageOf, paginationOf } from '../../ops/pagination.ts';
import { UserSchema, toPublicUser } from './user.schema.ts';
import { GetUserRequest, Users, UsersRequest } from './admin-users.schema.ts';
import { getUserForAdmin, searchUsers } from './admin-users.service.ts';

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

export const userAdminOperations = [usersOp, userOp];
