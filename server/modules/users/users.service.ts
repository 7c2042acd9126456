/**
 * Creating, finding, re-addressing and purging users. Every write of an email or phone number goes
 * through identity-claims.ts in the same transaction as the user row, which is what keeps them unique
 * (docs/api-overview.md#versioning). Emails are stored normalised (contact.ts), so lookups are exact matches
 * that use the users.email index.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { systemClock, type Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { User, type UserRow } from './user.entity.ts';
import { normaliseEmail, normalisePhoneNumber, requireEmail, requirePhoneNumber } from './contact.ts';
import { clearEmailVerification, clearPhoneVerification, type EmailProof } from './address-proof.ts';
import { releaseAllClaims, releaseClaim, takeClaim } from './identity-claims.ts';

export interface NewUserData {
  email?: string;
  phoneNumber?: string;
  /** Already hashed (passwords/hashPassword); absent for passwordless accounts. */
  passwordHash?: string;
  /** basic_auth, mobile_basic_auth, magic_link_login, google, ... */
  signupMethods: readonly string[];
  roles: readonly string[];
  givenName?: string;
  familyName?: string;
  middleName?: string;
  nickname?: string;
  preferredUsername?: string;
  gender?: string;
  birthdate?: string;
  picture?: string;
  appData?: Record<string, unknown>;
  isMultiFactorAuthEnabled?: boolean;
  emailVerifiedAt?: Date;
  /** How emailVerifiedAt was earned (address-proof.ts); 'unproven' when not said. */
  emailVerifiedVia?: EmailProof;
  phoneNumberVerifiedAt?: Date;
  /** The password was chosen by an administrator: the holder must replace it at first sign-in (user.entity.ts). */
  passwordChangeRequiredAt?: Date;
}

export interface LookupOptions {
  /** Admin views also see deactivated (soft-deleted) accounts; sign-in paths never do. */
  includeDeactivated?: boolean;
}

/**
 * Writes a new user and claims its email and phone number in one transaction (a savepoint when `em` is
 * already in one). Throws invalid_argument for a malformed or missing identity and already_exists
 * (`user with given email already exists`) when either identity is taken, also under concurrency.
 */
export async function createUser(em: EntityManager, clock: Clock, data: NewUserData): Promise<UserRow> {
  const email = data.email === undefined ? undefined : requireEmail(data.email);
  const phoneNumber = data.phoneNumber === undefined ? undefined : requirePhoneNumber(data.phoneNumber);
  if (!email && !phoneNumber) throw AppError.invalid('an email address or a phone number is required');
  const id = randomUUID();
  const now = clock.now();
  return em.transactional(async (tx) => {
    if (email) await takeClaim(tx, 'email', email, id, now);
    if (phoneNumber) await takeClaim(tx, 'phone', phoneNumber, id, now);
    const user = tx.create(User, {
      id,
      email: email ?? null,
      emailVerifiedAt: data.emailVerifiedAt ?? null,
      emailVerifiedVia: data.emailVerifiedAt ? (data.emailVerifiedVia ?? 'unproven') : null,
      phoneNumber: phoneNumber ?? null,
      phoneNumberVerifiedAt: data.phoneNumberVerifiedAt ?? null,
      passwordHash: data.passwordHash ?? null,
      passwordChangeRequiredAt: data.passwordChangeRequiredAt ?? null,
      signupMethods: [...new Set(data.signupMethods)].join(','),
      givenName: data.givenName ?? null,
      familyName: data.familyName ?? null,
      middleName: data.middleName ?? null,
      nickname: data.nickname ?? null,
      preferredUsername: data.preferredUsername ?? null,
      gender: data.gender ?? null,
      birthdate: data.birthdate ?? null,
      picture: data.picture ?? null,
      roles: [...new Set(data.roles)],
      appData: data.appData ?? null,
      isMultiFactorAuthEnabled: data.isMultiFactorAuthEnabled ?? null,
      revokedAt: null,
      revokedBy: null,
      deactivatedAt: null,
      scimExternalId: null,
      importedId: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return user;
  });
}

/**
 * Deactivated accounts are filtered out by the query itself (`deactivatedAt: null` in the WHERE clause)
 * unless the caller opts in, so a soft-deleted user can neither log in nor be found by a sign-in or
 * recovery flow, while still holding its email and phone claims (nobody else can take them over).
 */
function activeOnly(filter: FilterQuery<UserRow>, options: LookupOptions): FilterQuery<UserRow> {
  return options.includeDeactivated ? filter : ({ ...(filter as object), deactivatedAt: null } as FilterQuery<UserRow>);
}

export function findUserById(em: EntityManager, id: string, options: LookupOptions = {}): Promise<UserRow | null> {
  return em.findOne(User, activeOnly({ id }, options));
}

/** Looks up by the normalised address (trimmed, lower-cased), so any letter case finds the user. */
export function findUserByEmail(em: EntityManager, email: string, options: LookupOptions = {}): Promise<UserRow | null> {
  const normalised = normaliseEmail(email);
  if (!normalised) return Promise.resolve(null);
  return em.findOne(User, activeOnly({ email: normalised }, options));
}

export function findUserByPhone(em: EntityManager, phoneNumber: string, options: LookupOptions = {}): Promise<UserRow | null> {
  const normalised = normalisePhoneNumber(phoneNumber);
  if (!normalised) return Promise.resolve(null);
  return em.findOne(User, activeOnly({ phoneNumber: normalised }, options));
}

export interface ContactChange {
  /** undefined: unchanged; null: removed (only while the other identity remains). */
  email?: string | null;
  phone?: string | null;
}

/**
 * Moves the user's email and/or phone number: takes the new claim, releases the old one, and clears the
 * matching verified-at time (a new address is not verified yet; callers that know better set it after).
 * Same already_exists answer as createUser when the new identity is taken. Flushes the user.
 */
export async function updateUserContact(
  em: EntityManager,
  user: UserRow,
  change: ContactChange,
  clock: Clock = systemClock,
): Promise<UserRow> {
  const email = change.email == null ? change.email : requireEmail(change.email);
  const phoneNumber = change.phone == null ? change.phone : requirePhoneNumber(change.phone);
  const nextEmail = email === undefined ? user.email : email;
  const nextPhone = phoneNumber === undefined ? user.phoneNumber : phoneNumber;
  if (!nextEmail && !nextPhone) throw AppError.invalid('an email address or a phone number is required');
  const now = clock.now();
  return em.transactional(async (tx) => {
    const managed = tx.merge(user);
    if (nextEmail !== managed.email) {
      if (nextEmail) await takeClaim(tx, 'email', nextEmail, managed.id, now);
      if (managed.email) await releaseClaim(tx, 'email', managed.email, managed.id);
      managed.email = nextEmail ?? null;
      // A new address proves nothing yet, whatever the old one had (address-proof.ts).
      clearEmailVerification(managed);
    }
    if (nextPhone !== managed.phoneNumber) {
      if (nextPhone) await takeClaim(tx, 'phone', nextPhone, managed.id, now);
      if (managed.phoneNumber) await releaseClaim(tx, 'phone', managed.phoneNumber, managed.id);
      managed.phoneNumber = nextPhone ?? null;
      clearPhoneVerification(managed);
    }
    managed.updatedAt = now;
    await tx.flush();
    return managed;
  });
}

/**
 * Deletes the user row and its identity claims, so the email and phone number are free again. Other
 * per-user data (sessions, tokens, verification requests, OTPs) is removed by the caller in the same
 * transaction. Answers false when there was no such user.
 */
export async function purgeUser(em: EntityManager, userId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    await releaseAllClaims(tx, userId);
    return (await tx.nativeDelete(User, { id: userId })) > 0;
  });
}
