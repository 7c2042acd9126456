/**
 * A new account as the tests need one: signed up over REST (signup answers a session of its own), its
 * address marked verified by the super-admin when asked, then logged in again over the chosen protocol.
 * Answers the account (id, email, password, phone), the login's tokens, its cookies and a bearer header,
 * and the whole login answer for tests that look further. Each step must succeed, or the test fails there.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { threeProtocols, type Protocol, type ProtocolReply, type Reachable } from './three-protocols.ts';

export const USER_PASSWORD = 'Str0ng!pass-signed-in';

export interface NewUserOptions {
  /** A fresh random address by default. */
  email?: string;
  password?: string;
  /** Sent as phone_number at signup. */
  phone?: string;
  /** Further signup fields: roles, given_name... */
  profile?: Record<string, unknown>;
  /**
   * The super-admin marks the address verified (update_user email_verified) before the login, with the
   * test servers' admin secret (test/support/app.ts); for another server, call adminClient with its own.
   */
  verified?: boolean;
  /** false: no second login; the signup's own answer is the session (where it carries one). */
  login?: boolean;
  /** The login's scope (offline_access for a refresh token). */
  scope?: string[];
  /** The protocol of the login; the signup is over REST. */
  protocol?: Protocol;
  /** What the login must end in: tokens (by default), or a second-factor challenge (an `mfa` cookie, no token). */
  expect?: 'tokens' | 'challenge';
}

export interface Session {
  /** Absent where the login stopped at a challenge, or a signup asks for a verified address first. */
  accessToken: string;
  idToken?: string;
  refreshToken?: string;
  /** `{ authorization: 'Bearer <access token>' }` */
  bearer: { authorization: string };
  /** The value of cookie_session, where the answer set one. */
  sessionCookie?: string;
  /** Every cookie the answer set, as a Cookie header (`cookie_session=...; mfa=...`). */
  cookies: string;
  /** The body of the answer. */
  answer: any;
}

export interface SignedInUser extends Session {
  userId: string;
  email: string;
  password: string;
  phone?: string;
  /** The body of the signup's answer. */
  signup: any;
}

export interface LoginOptions {
  email: string;
  password?: string;
  scope?: string[];
  protocol?: Protocol;
  expect?: 'tokens' | 'challenge';
}

function cookieIn(cookies: string, name: string): string | undefined {
  return cookies
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/** The session an answer (login or signup) carries, checked against what the test expects of it. */
function sessionOf(reply: ProtocolReply, expect: 'tokens' | 'challenge' | 'anything', who: string): Session {
  if (expect === 'tokens') assert.equal(typeof reply.body.access_token, 'string', `${who} is signed in: ${JSON.stringify(reply.body)}`);
  else if (expect === 'challenge') {
    assert.equal(reply.body.access_token, undefined, 'the password alone is challenged');
    assert.ok(cookieIn(reply.cookies, 'mfa'), 'the challenge sets the mfa cookie');
  }
  return {
    accessToken: reply.body.access_token,
    idToken: reply.body.id_token,
    refreshToken: reply.body.refresh_token,
    bearer: { authorization: `Bearer ${reply.body.access_token}` },
    sessionCookie: cookieIn(reply.cookies, 'cookie_session'),
    cookies: reply.cookies,
    answer: reply.body,
  };
}

/** A password login of an existing account; it must succeed. */
export async function loggedIn(server: Reachable, options: LoginOptions): Promise<Session> {
  const callers = threeProtocols(server);
  try {
    const protocol = options.protocol ?? 'rest';
    const { email, password = USER_PASSWORD, scope } = options;
    const reply = await callers.send(protocol, 'login', { email, password, ...(scope ? { scope } : {}) });
    assert.ok(reply.ok, `${protocol} login ${email}: ${JSON.stringify(reply.body)}`);
    return sessionOf(reply, options.expect ?? 'tokens', email);
  } finally {
    callers.close();
  }
}

export async function signedInUser(server: Reachable, options: NewUserOptions = {}): Promise<SignedInUser> {
  const email = options.email ?? `u${randomBytes(5).toString('hex')}@example.com`;
  const password = options.password ?? USER_PASSWORD;
  const callers = threeProtocols(server);
  try {
    const signup = await callers.send('rest', 'signup', {
      email,
      password,
      confirm_password: password,
      ...(options.phone ? { phone_number: options.phone } : {}),
      ...options.profile,
    });
    assert.ok(signup.ok, `signup ${email}: ${JSON.stringify(signup.body)}`);
    const userId = signup.body.user.id as string;
    if (options.verified) await callers.over('rest', 'update_user', { id: userId, email_verified: true }, 'admin');
    const session =
      options.login === false
        ? sessionOf(signup, 'anything', email)
        : await loggedIn(server, { email, password, scope: options.scope, protocol: options.protocol, expect: options.expect });
    return { userId, email, password, ...(options.phone ? { phone: options.phone } : {}), ...session, signup: signup.body };
  } finally {
    callers.close();
  }
}

/**
 * An account that signed up and did nothing more: signedInUser without the second login. Its session is
 * the signup's, which has no token where the instance asks for a verified address first.
 */
export function signedUpUser(server: Reachable, options: Omit<NewUserOptions, 'login' | 'scope' | 'protocol' | 'expect'> = {}): Promise<SignedInUser> {
  return signedInUser(server, { ...options, login: false });
}
