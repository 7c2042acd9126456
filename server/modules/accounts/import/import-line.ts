/**
 * One line of an import (docs/importing-users.md#the-line): a JSON object describing one user, read into
 * what the batch writer needs, or a LineRefusal saying what is wrong with it. The line is parsed on its
 * own, so a malformed line never affects the others. Text is checked as every operation input is
 * (ops/input-guard.ts: control characters, lone surrogates, `__proto__`, nesting), and the fields are
 * bounded as the user entity's columns are.
 */
import type { Config } from '../../../config/flags.ts';
import { AppError } from '../../../kernel/errors.ts';
import { guardInput } from '../../../ops/input-guard.ts';
import { assignableRoles, requireEmail, requirePhoneNumber, rolesForSignup } from '../../users/index.ts';
import { checkFirebaseParams, firebaseStoredHash, ImportedHashError, storedFormOf, type FirebaseScryptParams } from '../../passwords/index.ts';

/** A line longer than this is refused without being read whole (docs/importing-users.md#limits). */
export const MAX_LINE_BYTES = 64 * 1024;

export class LineRefusal extends Error {
  constructor(reason: string) {
    // A refusal names a line of the file, never a place in the code: no stack is captured, which would cost
    // more than the rest of a malformed line's handling in a file of many (docs/importing-users.md#limits).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(reason);
    Error.stackTraceLimit = limit;
  }
}

const refuse = (reason: string): never => {
  throw new LineRefusal(reason);
};

/** The profile columns a line may fill, with their lengths (users/user.entity.ts). */
const PROFILE_FIELDS = {
  given_name: ['givenName', 255],
  family_name: ['familyName', 255],
  middle_name: ['middleName', 255],
  nickname: ['nickname', 255],
  preferred_username: ['preferredUsername', 255],
  gender: ['gender', 64],
  birthdate: ['birthdate', 64],
  picture: ['picture', 2048],
} as const;

type ProfileColumn = (typeof PROFILE_FIELDS)[keyof typeof PROFILE_FIELDS][0];

const OTHER_FIELDS = new Set(['external_id', 'email', 'phone_number', 'email_verified', 'phone_number_verified', 'roles', 'app_data', 'password_hash']);

export interface ImportRecord {
  readonly line: number;
  readonly externalId?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly emailVerified: boolean;
  readonly phoneVerified: boolean;
  readonly profile: Partial<Record<ProfileColumn, string>>;
  readonly roles: string[];
  readonly appData?: Record<string, unknown>;
  /** The stored form (passwords/imported-hash.ts). */
  readonly passwordHash?: string;
}

export interface LineContext {
  readonly config: Pick<Config, 'roles' | 'defaultRoles' | 'protectedRoles'>;
  /** The key id of the request's Firebase parameters, once stored. */
  readonly firebaseKeyId?: string;
}

/** Parses a line's JSON text into an object, or refuses it. */
export function parseLineObject(text: string): Record<string, unknown> {
  // Anything but an object is refused before parsing: JSON.parse's SyntaxError carries a stack, whose garbage in
  // a file of many malformed lines makes collections that hold the event loop (docs/importing-users.md#limits).
  if (text.trimStart()[0] !== '{') refuse('a line must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse('a line must be a JSON object');
  try {
    return guardInput(value) as Record<string, unknown>;
  } catch (err) {
    return refuse(err instanceof AppError ? err.message : 'not acceptable input');
  }
}

function optionalText(object: Record<string, unknown>, field: string, maxLength: number): string | undefined {
  const value = object[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') refuse(`${field} must be a string`);
  const text = (value as string).trim();
  if (text.length > maxLength) refuse(`${field} is longer than ${maxLength} characters`);
  return text === '' ? undefined : text;
}

function flag(object: Record<string, unknown>, field: string): boolean {
  const value = object[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') refuse(`${field} must be true or false`);
  return value as boolean;
}

/** A failing rule of the users module (requireEmail, assignableRoles) becomes this line's refusal. */
function asLineRule<T>(rule: () => T): T {
  try {
    return rule();
  } catch (err) {
    return refuse(err instanceof AppError ? err.message : 'not acceptable');
  }
}

function passwordHashOf(value: unknown, context: LineContext): string | undefined {
  if (value === undefined) return undefined;
  try {
    if (typeof value === 'string') return storedFormOf(value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const { algorithm, hash, salt, ...rest } = value as Record<string, unknown>;
      if (algorithm !== 'firebase-scrypt') refuse('password_hash as an object must have algorithm "firebase-scrypt"');
      if (Object.keys(rest).length > 0) refuse(`password_hash has an unknown field "${Object.keys(rest)[0]!.slice(0, 40)}"`);
      if (typeof hash !== 'string' || typeof salt !== 'string') refuse('a firebase-scrypt password_hash needs hash and salt as base64 strings');
      if (!context.firebaseKeyId) refuse('a firebase-scrypt hash needs the project parameters (firebase_scrypt on the request or the first line)');
      return firebaseStoredHash(context.firebaseKeyId!, salt as string, hash as string);
    }
  } catch (err) {
    if (err instanceof ImportedHashError) refuse(`password_hash: ${err.message}`);
    throw err;
  }
  return refuse('password_hash must be a string, or an object for firebase-scrypt');
}

/** Reads one user line into a record, or throws LineRefusal. */
export function readImportRecord(object: Record<string, unknown>, line: number, context: LineContext): ImportRecord {
  for (const key of Object.keys(object)) {
    if (!(key in PROFILE_FIELDS) && !OTHER_FIELDS.has(key)) refuse(`unknown field "${key.slice(0, 40)}"`);
  }
  const emailText = optionalText(object, 'email', 254);
  const phoneText = optionalText(object, 'phone_number', 32);
  const email = emailText === undefined ? undefined : asLineRule(() => requireEmail(emailText));
  const phone = phoneText === undefined ? undefined : asLineRule(() => requirePhoneNumber(phoneText));
  if (!email && !phone) refuse('email or phone_number is required');
  const emailVerified = flag(object, 'email_verified');
  const phoneVerified = flag(object, 'phone_number_verified');
  if (emailVerified && !email) refuse('email_verified needs an email address');
  if (phoneVerified && !phone) refuse('phone_number_verified needs a phone number');
  const profile: Partial<Record<ProfileColumn, string>> = {};
  for (const [field, [column, maxLength]] of Object.entries(PROFILE_FIELDS)) {
    const value = optionalText(object, field, maxLength);
    if (value !== undefined) profile[column] = value;
  }
  const rolesValue = object.roles;
  if (rolesValue !== undefined && (!Array.isArray(rolesValue) || rolesValue.some((role) => typeof role !== 'string'))) refuse('roles must be a list of strings');
  const asked = (rolesValue as string[] | undefined) ?? [];
  const roles = asked.length ? asLineRule(() => assignableRoles(context.config, asked)) : rolesForSignup(context.config);
  const appData = object.app_data;
  if (appData !== undefined && (appData === null || typeof appData !== 'object' || Array.isArray(appData))) refuse('app_data must be a JSON object');
  return {
    line,
    externalId: optionalText(object, 'external_id', 255),
    email,
    phone,
    emailVerified,
    phoneVerified,
    profile,
    roles,
    appData: appData as Record<string, unknown> | undefined,
    passwordHash: passwordHashOf(object.password_hash, context),
  };
}

/** The request-wide parameters a first line may carry instead of the request's fields. */
export function isHeaderLine(object: Record<string, unknown>): boolean {
  return Object.keys(object).length === 1 && 'firebase_scrypt' in object;
}

function base64Param(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) throw AppError.invalid(`firebase_scrypt.${field} must be base64`);
  return Buffer.from(value, 'base64');
}

/** Firebase project parameters as the request or a header line gives them; invalid_argument when they are not usable. */
export function firebaseParamsOf(value: unknown): FirebaseScryptParams {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw AppError.invalid('firebase_scrypt must be an object');
  const given = value as Record<string, unknown>;
  const params: FirebaseScryptParams = {
    signerKey: base64Param(given.signer_key, 'signer_key'),
    saltSeparator: base64Param(given.salt_separator ?? '', 'salt_separator'),
    rounds: Number(given.rounds),
    memCost: Number(given.mem_cost),
  };
  try {
    checkFirebaseParams(params);
  } catch (err) {
    throw AppError.invalid(`firebase_scrypt: ${(err as Error).message}`);
  }
  return params;
}
