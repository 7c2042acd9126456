/**
 * The audit entry of every successful admin mutation, written by the one pipeline (ops/invoke.ts runHandler)
 * rather than by each handler: action `admin.<operation>`, the resource the operation acts on, and the names
 * of the fields the request carried (never their values: update_user may carry a password, a secret rotation
 * answers a secret). Admin reads are not audited.
 *
 * The resource type is the operation's name without its verb (update_user -> user, add_trusted_issuer ->
 * trusted_issuer), except where the table below says otherwise; the resource id is the request's `id` or
 * `user_id`, else the id of the record the answer carries.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { AuditLog } from './audit-log.entity.ts';
import { actorOf, auditRow, type AuditEntry } from './audit.ts';
import { erasedUserPseudonym } from './erased-user.ts';

const VERBS = /^(add|create|update|delete|rotate|revoke|enable|disable|remove|invite|import|retire|request|verify|test|reset|write)_/;

const RESOURCE_BY_OPERATION: Readonly<Record<string, string>> = {
  admin_login: 'admin_session',
  admin_logout: 'admin_session',
  revoke_access: 'user',
  enable_access: 'user',
  invite_members: 'user',
  fga_write_model: 'fga_model',
  fga_write_tuples: 'fga_tuple',
  fga_delete_tuples: 'fga_tuple',
  fga_reset: 'fga_store',
};

export function adminResourceType(operation: string): string {
  return RESOURCE_BY_OPERATION[operation] ?? operation.replace(VERBS, '');
}

function idIn(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' && id ? id : undefined;
}

function resourceIdOf(input: Record<string, unknown>, result: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'user_id']) {
    const value = input[key];
    if (typeof value === 'string' && value) return value;
  }
  // create_client answers {client, client_secret}; only the nested record's id is read, never another field.
  const answered = idIn(result) ?? Object.values(result).map(idIn).find(Boolean);
  // An organization-scoped operation that names no record of its own (rotate_saml_idp_cert) acts on the organization.
  const orgId = input.org_id;
  return answered ?? (typeof orgId === 'string' && orgId ? orgId : undefined);
}

export function adminAuditEntry(operation: string, input: Record<string, unknown>, result: Record<string, unknown>): AuditEntry {
  return {
    action: `admin.${operation}`,
    // admin_login is the door (auth 'public'): once it succeeded the caller is the super-admin.
    actor: { type: 'super_admin' },
    resourceType: adminResourceType(operation),
    resourceId: resourceIdOf(input, result) ?? '',
    metadata: { fields: Object.keys(input).filter((key) => key !== 'id' && input[key] !== undefined).sort() },
  };
}

/**
 * The entry as the caller made it: org-scoped admin operations are open to an organization's org-admins
 * (docs/operations.md, "Organizations"), who are signed-in users and are named as such.
 */
function entryOf(ctx: OpContext, operation: string, input: Record<string, unknown>, result: Record<string, unknown>): AuditEntry {
  const entry = adminAuditEntry(operation, input, result);
  // The entry of an erasure names the erased account by its pseudonym, as every older entry now does (erased-user.ts).
  if (ERASING_OPERATIONS.has(operation) && entry.resourceId) entry.resourceId = erasedUserPseudonym(ctx.deps.config, entry.resourceId);
  return ctx.caller.kind === 'user' ? { ...entry, actor: actorOf(ctx.caller) } : entry;
}

/** The admin operations that erase the account they name (docs/privacy.md#what-erasure-does). */
const ERASING_OPERATIONS: ReadonlySet<string> = new Set(['delete_user']);

/** Adds the entry to the operation's transaction (flushed with its change). */
export function recordAdminAudit(em: EntityManager, ctx: OpContext, operation: string, input: Record<string, unknown>, result: Record<string, unknown>): void {
  em.persist(em.create(AuditLog, auditRow(ctx, entryOf(ctx, operation, input, result))));
}

/** For an admin mutation that ran outside the main database's transaction (the FGA operations). */
export async function insertAdminAudit(ctx: OpContext, operation: string, input: Record<string, unknown>, result: Record<string, unknown>): Promise<void> {
  await ctx.deps.storage.fork().insert(AuditLog, auditRow(ctx, entryOf(ctx, operation, input, result)));
}
