/**
 * `_create_user` (server/modules/accounts/admin-create-user.ops.ts): an account made by the administrator,
 * with an initial password the person must replace at first sign-in, or a one-time set-password link. The
 * link is in this answer only; the dialog keeps it in its own state, never in the query cache.
 */
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';

/** The fields the dialog sets: the roles always, and exactly one of password and set_password_link. */
export type NewUserFields = Pick<Input<'create_user'>, 'email' | 'phone_number' | 'given_name' | 'family_name' | 'password' | 'set_password_link'>
  & { roles: string[] };

/** The link is there only when asked for: single use, shown this once (expiry in Unix seconds). */
export type CreatedUser = Output<'create_user'>;

export async function createUser(params: NewUserFields): Promise<CreatedUser> {
  return call('create_user', params);
}

const PASSWORD_ALPHABETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-=?@_'];

/**
 * A random initial password that satisfies the strong-password rule (upper, lower, digit, special; 20
 * characters, under the server's maximum), drawn with the Web Crypto API. Look-alike characters are left out
 * because the administrator may have to read it out.
 */
export function randomInitialPassword(length = 20): string {
  const all = PASSWORD_ALPHABETS.join('');
  const pick = (alphabet: string) => {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    return alphabet[value! % alphabet.length]!;
  };
  const chars = PASSWORD_ALPHABETS.map(pick);
  while (chars.length < length) chars.push(pick(all));
  // Shuffle, so the guaranteed classes do not always lead (Fisher-Yates with crypto draws).
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    const j = value! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
