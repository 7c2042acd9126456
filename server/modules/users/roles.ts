/**
 * Role rules (docs/configuration.md#defaults): a user holds roles from --roles; signup gets
 * --default-roles unless it asks for others, and may never ask for a --protected-roles role; login may
 * narrow the token to roles the user holds, never widen it.
 */
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from './user.entity.ts';

type RoleConfig = Pick<Config, 'roles' | 'defaultRoles' | 'protectedRoles'>;

function distinct(roles: readonly string[]): string[] {
  return [...new Set(roles.map((role) => role.trim()).filter(Boolean))];
}

/** The roles a new account gets. Throws invalid_argument for a role that is unknown or protected. */
export function rolesForSignup(config: RoleConfig, asked?: readonly string[]): string[] {
  const wanted = distinct(asked ?? []);
  if (wanted.length === 0) return distinct(config.defaultRoles);
  for (const role of wanted) {
    if (!config.roles.includes(role) || config.protectedRoles.includes(role)) {
      throw AppError.invalid(`role ${JSON.stringify(role)} cannot be requested at signup`);
    }
  }
  return wanted;
}

/** Roles an administrator may assign: any of --roles (protected ones included), at least one. */
export function assignableRoles(config: Pick<Config, 'roles'>, asked: readonly string[]): string[] {
  const wanted = distinct(asked);
  if (wanted.length === 0) throw AppError.invalid('roles must name at least one role');
  for (const role of wanted) {
    if (!config.roles.includes(role)) throw AppError.invalid(`role ${JSON.stringify(role)} is not one of the configured roles`);
  }
  return wanted;
}

/**
 * The roles a login's tokens carry: all the user's roles, or the asked subset. Asking for a role the user
 * does not hold is refused with permission_denied (the password was right, the request is not allowed).
 */
export function rolesForLogin(user: Pick<UserRow, 'roles'>, asked?: readonly string[]): string[] {
  const wanted = distinct(asked ?? []);
  if (wanted.length === 0) return [...user.roles];
  for (const role of wanted) {
    if (!user.roles.includes(role)) throw AppError.forbidden('user does not have the requested roles');
  }
  return wanted;
}

/**
 * The roles a token or session may use now: those it was granted that the user still holds. Every mint
 * (login, session refresh, refresh grant, cookie caller) and every role check goes through this, so an
 * administrator removing a role takes effect at the next mint and at once for validation (OWASP ASVS
 * 4.1.3 least privilege, 4.2.1: authorisation decided on current server-side state, not a client's copy).
 */
export function heldRoles(user: Pick<UserRow, 'roles'>, granted: unknown): string[] {
  const list = Array.isArray(granted) ? granted.filter((role): role is string => typeof role === 'string') : [];
  return list.filter((role) => user.roles.includes(role));
}
