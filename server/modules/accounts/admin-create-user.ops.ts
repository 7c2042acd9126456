/**
 * `_create_user` (REST /v1/admin/create_user, gRPC AdminService.CreateUser): an administrator adds an account
 * without any email being sent, so an instance without SMTP can still gain users. The account gets EITHER
 *
 * - an initial password, checked by the password policy and stored hashed, marked to be replaced: a password
 *   sign-in with it answers FAILED_PRECONDITION "password change required" and no token, and the holder
 *   chooses their own with change_initial_password (initial-password.ops.ts), which then signs them in; or
 * - a one-time set-password link the administrator copies from this answer and passes on: single use, valid
 *   7 days, built from --reset-password-url or --url only (email/email-links.ts), completed by reset_password
 *   on the login UI's reset page (verification/set-password-token.ts). A newer link replaces an older one.
 *
 * The address typed here is not proven (users/address-proof.ts): email_verified / phone_number_verified mark it
 * verified only when the administrator says so, as update_user does. Email and phone number are unique as at
 * signup (identity claims: already_exists); roles must be among --roles (invalid_argument), --default-roles
 * when none are given. Records `user.created`; the pipeline writes the admin audit entry (field names only).
 */
import { defineOperation } from '../../ops/define.ts';
import { s, type Static } from '../../ops/schema.ts';
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { assignableRoles, rolesForSignup, toPublicUser, UserSchema, unixSeconds } from '../users/index.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import { personalWordsOfInput } from './personal-words.ts';
import { createSetPasswordToken } from '../verification/index.ts';
import { resetPasswordLink } from '../email/index.ts';
import { createAccount } from './create-account.ts';

const profileText = (maxLength: number) => s.optional(s.string({ maxLength }));

export const CreateUserRequest = s.object('CreateUserRequest', {
  email: s.optional(s.string()),
  phone_number: s.optional(s.string()),
  given_name: profileText(255),
  family_name: profileText(255),
  middle_name: profileText(255),
  nickname: profileText(255),
  gender: profileText(64),
  birthdate: profileText(64),
  picture: s.optional(s.string()),
  roles: s.optional(s.list(s.string())),
  app_data: s.optional(s.map()),
  email_verified: s.optional(s.boolean({ description: 'mark the address verified on the administrator\'s word; default false' })),
  phone_number_verified: s.optional(s.boolean({ description: 'mark the number verified on the administrator\'s word; default false' })),
  password: s.optional(s.string({ description: 'an initial password, replaced by the holder at the first sign-in (change_initial_password)' })),
  set_password_link: s.optional(s.boolean({ description: 'instead of a password: answer a one-time link that lets the holder choose one' })),
});

export const CreateUserResponse = s.object('CreateUserResponse', {
  message: s.string(),
  user: UserSchema,
  set_password_link: s.optional(s.string({ description: 'shown only in this answer: single use, expires at set_password_link_expires_at' })),
  set_password_link_expires_at: s.optional(s.int64()),
});

type CreateUserInput = Static<typeof CreateUserRequest>;

/** A value, or undefined for one left out or blank (the console's empty fields). */
function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Exactly one way to a password. */
function passwordChoice(input: CreateUserInput): { password: string } | { link: true } {
  const link = input.set_password_link === true;
  if (input.password !== undefined && link) throw AppError.invalid('give either password or set_password_link, not both');
  if (link) return { link: true };
  if (input.password === undefined) throw AppError.invalid('give an initial password, or set_password_link true for a one-time link');
  return { password: input.password };
}

/** The account can use a password only by an identifier whose password sign-in is on. */
function checkPasswordSignInPossible(config: Config, email: string | undefined, phone: string | undefined): void {
  if ((email && config.enableBasicAuthentication) || (phone && config.enableMobileBasicAuthentication)) return;
  throw AppError.precondition(
    email
      ? 'password sign-in by email is disabled for this instance (--enable-basic-authentication)'
      : 'password sign-in by phone number is disabled for this instance (--enable-mobile-basic-authentication)',
  );
}

export const createUserOp = defineOperation({
  name: 'create_user',
  admin: true,
  kind: 'mutation',
  description:
    'Creates a user with an email and/or phone number, with either an initial password (the first password sign-in answers ' +
    'FAILED_PRECONDITION "password change required" until change_initial_password replaces it) or a one-time ' +
    'set-password link (answered once; reset_password completes it). The address is not marked verified unless ' +
    'email_verified / phone_number_verified say so; roles among --roles, --default-roles when none',
  input: CreateUserRequest,
  output: CreateUserResponse,
  auth: 'admin',
  // argon2 runs before the transaction opens, so SQLite's one connection is held only for the writes.
  transaction: false,
  handler: async (input, ctx) => {
    const { config, clock } = ctx.deps;
    const email = given(input.email);
    const phone = given(input.phone_number);
    if (!email && !phone) throw AppError.invalid('email or phone_number is required');
    if (input.email_verified && !email) throw AppError.invalid('email_verified needs an email address');
    if (input.phone_number_verified && !phone) throw AppError.invalid('phone_number_verified needs a phone number');
    const choice = passwordChoice(input);
    checkPasswordSignInPossible(config, email, phone);
    if ('link' in choice && !config.enableLoginPage && !config.resetPasswordUrl) {
      throw AppError.precondition('a set-password link needs the built-in login page (--enable-login-page) or --reset-password-url');
    }
    // An empty list is "none given" on every protocol (a protobuf repeated field cannot tell the two apart).
    const roles = input.roles?.length ? assignableRoles(config, input.roles) : rolesForSignup(config);
    if ('password' in choice) await checkPasswordPolicy(config, choice.password, undefined, personalWordsOfInput(input));
    const passwordHash = 'password' in choice ? await hashPassword(choice.password) : undefined;
    const now = clock.now();
    return ctx.em.transactional(async (em) => {
      const user = await createAccount({ ...ctx, em }, {
        email,
        phoneNumber: phone,
        passwordHash,
        passwordChangeRequiredAt: passwordHash ? now : undefined,
        signupMethods: [...(email ? ['basic_auth'] : []), ...(phone ? ['mobile_basic_auth'] : [])],
        roles,
        givenName: given(input.given_name),
        familyName: given(input.family_name),
        middleName: given(input.middle_name),
        nickname: given(input.nickname),
        gender: given(input.gender),
        birthdate: given(input.birthdate),
        picture: given(input.picture),
        appData: input.app_data,
        // The administrator's word (address-proof.ts 'admin'), only when given explicitly.
        emailVerifiedAt: input.email_verified ? now : undefined,
        emailVerifiedVia: 'admin',
        phoneNumberVerifiedAt: input.phone_number_verified ? now : undefined,
      });
      if (!('link' in choice)) {
        return { message: 'User created. The initial password must be replaced at the first sign-in.', user: toPublicUser(user) };
      }
      const issued = await createSetPasswordToken(em, clock, user);
      return {
        message: 'User created. Copy the set-password link now: it is shown only once.',
        user: toPublicUser(user),
        set_password_link: resetPasswordLink(config, { token: issued.token }),
        set_password_link_expires_at: unixSeconds(issued.expiresAt),
      };
    });
  },
});
