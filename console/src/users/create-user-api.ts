/**
 * `_create_user` (server/modules/accounts/admin-create-user.ops.ts): an account made by the administrator,
 * with an initial password the person must replace at first sign-in, or a one-time set-password link. The
 * link is in this answer only; the dialog keeps it in its own state, never in the query cache.
 */
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { AdminUser } from '../api/types.ts';

export interface NewUserFields {
  email?: string;
  phone_number?: string;
  given_name?: string;
  family_name?: string;
  roles: string[];
  /** Exactly one of password and set_password_link. */
  password?: string;
  set_password_link?: boolean;
}

export interface CreatedUser {
  message: string;
  user: Pick<AdminUser, 'id' | 'email' | 'phone_number' | 'given_name' | 'family_name' | 'roles'>;
  /** Only when asked for: single use, shown this once. */
  set_password_link?: string | null;
  /** Unix seconds. */
  set_password_link_expires_at?: number | null;
}

const CREATE_USER = `mutation CreateUser($params: CreateUserRequest!) { _create_user(params: $params) {
  message set_password_link set_password_link_expires_at user { id email phone_number given_name family_name roles }
} }`;

export async function createUser(params: NewUserFields): Promise<CreatedUser> {
  return (await graphql<{ _create_user: CreatedUser }>(CREATE_USER, { params }))._create_user;
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
