/** Request and response objects of the admin user operations (docs/operations.md: `_users`, `_user`, `_update_user`). */
import { s } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { UserSchema } from './user.schema.ts';

export const UsersRequest = s.object('UsersRequest', {
  pagination: s.optional(PaginationRequest),
  query: s.optional(s.string({ maxLength: 255, description: 'case-insensitive substring of id, email, given, family or nick name' })),
});

export const Users = s.object('Users', {
  users: s.list(UserSchema),
  pagination: Pagination,
});

export const GetUserRequest = s.object('GetUserRequest', {
  id: s.optional(s.string()),
  email: s.optional(s.string()),
});

export const UpdateUserRequest = s.object('UpdateUserRequest', {
  id: s.string(),
  email: s.optional(s.string()),
  given_name: s.optional(s.string({ maxLength: 255 })),
  family_name: s.optional(s.string({ maxLength: 255 })),
  middle_name: s.optional(s.string({ maxLength: 255 })),
  nickname: s.optional(s.string({ maxLength: 255 })),
  gender: s.optional(s.string({ maxLength: 64 })),
  birthdate: s.optional(s.string({ maxLength: 64 })),
  phone_number: s.optional(s.string()),
  picture: s.optional(s.string()),
  email_verified: s.optional(s.boolean()),
  phone_number_verified: s.optional(s.boolean()),
  roles: s.optional(s.list(s.string())),
  is_multi_factor_auth_enabled: s.optional(s.boolean()),
  app_data: s.optional(s.map()),
  /**
   * docs/operations.md#update_user: clears all MFA state (modules/mfa/reset-mfa.ts). Last, so that the gRPC
   * field numbers of the fields before it stay what clients were built with.
   */
  reset_mfa: s.optional(s.boolean()),
});
