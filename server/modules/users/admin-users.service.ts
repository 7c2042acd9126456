/** What the admin user operations do, kept apart from their protocol definitions (admin-users.ops.ts). */
import type { EntityManager } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import type { Config } from '../../config/flags.ts';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from './user.entity.ts';
import { findUserByEmail, findUserById, updateUserContact } from './users.service.ts';
import { assignableRoles } from './roles.ts';
import { clearEmailVerification, clearPhoneVerification, emailProven, markEmailVerified, markPhoneVerified } from './address-proof.ts';
import type { GetUserRequest, UpdateUserRequest } from './admin-users.schema.ts';

/** `_user`: exactly one of id and email. Deactivated accounts are visible to the administrator. */
export async function getUserForAdmin(em: EntityManager, input: Static<typeof GetUserRequest>): Promise<UserRow> {
  const id = input.id?.trim();
  const email = input.email?.trim();
  if (Boolean(id) === Boolean(email)) throw AppError.invalid('give exactly one of id and email');
  const user = id
    ? await findUserById(em, id, { includeDeactivated: true })
    : await findUserByEmail(em, email!, { includeDeactivated: true });
  if (!user) throw AppError.notFound('user not found');
  return user;
}

/** An empty string clears an optional profile field. */
function profileValue(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === '' ? null : value;
}

const PROFILE_FIELDS = [
  ['given_name', 'givenName'],
  ['family_name', 'familyName'],
  ['middle_name', 'middleName'],
  ['nickname', 'nickname'],
  ['gender', 'gender'],
  ['birthdate', 'birthdate'],
  ['picture', 'picture'],
] as const;

/**
 * `_update_user`: applies the given fields. Email and phone changes move the identity claims (same
 * already_exists answer as signup) and reset verification unless the request sets it in the same call.
 */
export async function updateUserAsAdmin(
  em: EntityManager,
  config: Pick<Config, 'roles'>,
  clock: Clock,
  input: Static<typeof UpdateUserRequest>,
): Promise<UserRow> {
  const user = await findUserById(em, input.id, { includeDeactivated: true });
  if (!user) throw AppError.notFound('user not found');
  // Checked before any write so a bad role list changes nothing.
  const roles = input.roles === undefined ? undefined : assignableRoles(config, input.roles);
  if (input.email !== undefined || input.phone_number !== undefined) {
    await updateUserContact(em, user, { email: input.email, phone: input.phone_number }, clock);
  }
  const now = clock.now();
  for (const [field, property] of PROFILE_FIELDS) {
    const value = profileValue(input[field]);
    if (value !== undefined) user[property] = value;
  }
  if (roles) user.roles = roles;
  if (input.app_data !== undefined) user.appData = input.app_data;
  if (input.is_multi_factor_auth_enabled !== undefined) user.isMultiFactorAuthEnabled = input.is_multi_factor_auth_enabled;
  if (input.email_verified !== undefined) {
    if (input.email_verified && !user.email) throw AppError.invalid('the user has no email address to mark verified');
    // Recorded as an administrator's word (address-proof.ts), unless the address was already proven otherwise.
    if (!input.email_verified) clearEmailVerification(user);
    else if (!emailProven(user)) markEmailVerified(user, 'admin', now);
  }
  if (input.phone_number_verified !== undefined) {
    if (input.phone_number_verified && !user.phoneNumber) throw AppError.invalid('the user has no phone number to mark verified');
    if (input.phone_number_verified) markPhoneVerified(user, 'admin', now);
    else clearPhoneVerification(user);
  }
  user.updatedAt = now;
  await em.flush();
  return user;
}
