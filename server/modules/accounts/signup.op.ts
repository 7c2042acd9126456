/**
 * signup (docs/operations.md). Email signups need
 * --enable-basic-authentication, phone-only signups --enable-mobile-basic-authentication, and both
 * --enable-signup. With --enable-email-verification the account waits for its emailed link (no tokens yet);
 * otherwise the user is signed in at once. Events: user.created always; user.signup (and user.login) when
 * the account becomes usable (docs/events.md).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { rolesForSignup, toPublicUser } from '../users/index.ts';
import { createAccount } from './create-account.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import { personalWordsOfInput } from './personal-words.ts';
import { AuthResponse, SignUpRequest } from './accounts.schema.ts';
import { signIn } from './sign-in-policy.ts';
import { sendLinkMail, sendPhoneCode } from './account-mail.ts';

type SignUpInput = Static<typeof SignUpRequest>;

function checkSignupAllowed(ctx: HandlerContext, input: SignUpInput): 'basic_auth' | 'mobile_basic_auth' {
  const { config } = ctx.deps;
  if (!config.enableSignup) throw AppError.precondition('signup is disabled for this instance');
  if (!input.email && !input.phone_number) throw AppError.invalid('email or phone_number is required');
  const method = input.email ? 'basic_auth' : 'mobile_basic_auth';
  if (method === 'basic_auth' && !config.enableBasicAuthentication) {
    throw AppError.precondition('basic authentication is disabled for this instance');
  }
  if (method === 'mobile_basic_auth' && !config.enableMobileBasicAuthentication) {
    throw AppError.precondition('mobile basic authentication is disabled for this instance');
  }
  return method;
}

export const signupOp = defineOperation({
  name: 'signup',
  admin: false,
  kind: 'mutation',
  description: 'Registers a user with a password; signs in at once unless verification is required',
  input: SignUpRequest,
  output: AuthResponse,
  auth: 'public',
  // Hashing (10-20 ms of argon2) happens before the transaction opens, so SQLite's one connection is held
  // only for the writes.
  transaction: false,
  handler: async (input, ctx) => {
    const method = checkSignupAllowed(ctx, input);
    const { config } = ctx.deps;
    await checkPasswordPolicy(config, input.password, input.confirm_password, personalWordsOfInput(input));
    const roles = rolesForSignup(config, input.roles);
    const passwordHash = await hashPassword(input.password);
    return ctx.em.transactional((em) => register({ ...ctx, em }, input, method, roles, passwordHash));
  },
});

async function register(
  ctx: HandlerContext,
  input: SignUpInput,
  method: 'basic_auth' | 'mobile_basic_auth',
  roles: string[],
  passwordHash: string,
): Promise<Static<typeof AuthResponse>> {
  const { config } = ctx.deps;
  const user = await createAccount(ctx, {
    email: input.email,
    phoneNumber: input.phone_number,
    passwordHash,
    signupMethods: [method],
    roles,
    givenName: input.given_name,
    familyName: input.family_name,
    middleName: input.middle_name,
    nickname: input.nickname,
    gender: input.gender,
    birthdate: input.birthdate,
    picture: input.picture,
    appData: input.app_data,
  });
  const publicUser = toPublicUser(user);
  if (method === 'basic_auth' && config.enableEmailVerification) {
    await sendLinkMail(ctx, { event: 'basic_auth_signup', user, email: user.email!, redirectUri: input.redirect_uri });
    return { message: 'Verification email has been sent. Please check your inbox', user: publicUser };
  }
  if (method === 'mobile_basic_auth' && config.enablePhoneVerification) {
    await sendPhoneCode(ctx, user);
    return { message: 'Signed up successfully. Verify your phone number to sign in', should_show_mobile_otp_screen: true, user: publicUser };
  }
  // Under --enforce-mfa a new account is offered a second factor before its first token, like any sign-in
  // (accounts/mfa-gate.ts); the signup itself is recorded either way.
  const outcome = await signIn(ctx, {
    strategy: 'signup',
    user,
    loginMethod: method,
    roles,
    scope: input.scope ?? [],
    message: 'Signed up successfully.',
    signup: true,
  });
  return outcome.gated ? { ...outcome.response, user: publicUser } : outcome.response;
}
