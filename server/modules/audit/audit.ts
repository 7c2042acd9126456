/**
 * Writing audit entries (docs/api-overview.md#resources-and-fields, "AuditLog"; docs/configuration.md `--trusted-proxies`: the client IP
 * is the one the transport resolved per that flag, RequestMeta.ip). Two ways in:
 *
 * - `audit(ctx, entry)` inside the operation's transaction: the row joins the unit of work and is flushed
 *   with the change it reports (one insert, no extra round trip before the commit), so an entry exists
 *   exactly when its change was committed. Outside a transaction it inserts at once.
 * - `auditNow(ctx, entry)` for a refusal (a failed login) whose transaction, if any, rolls back: one insert
 *   on its own, in autocommit. Call it only outside a transaction (SQLite has one connection).
 *
 * Metadata holds ids and the names of changed fields, never their values: safeMetadata drops any key that
 * names a secret and keeps only short scalars, as a second line behind the callers' own care.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller, OpContext } from '../../kernel/context.ts';
import { inTransaction } from '../../kernel/context.ts';
import { AuditLog, type AuditLogRow } from './audit-log.entity.ts';

export type ActorType = 'user' | 'super_admin' | 'client' | 'anonymous';

export interface AuditActor {
  type: ActorType;
  id?: string;
  email?: string | null;
}

export type AuditMetadata = Readonly<Record<string, string | number | boolean | readonly string[] | null | undefined>>;

export interface AuditEntry {
  /** `admin.<operation>`, `user.login`, `user.login_failed`, ... */
  action: string;
  /** Defaults to the authenticated caller. */
  actor?: AuditActor;
  resourceType?: string;
  resourceId?: string | null;
  metadata?: AuditMetadata;
}

type AuditContext = Pick<OpContext, 'deps' | 'req' | 'caller'> & { readonly em?: EntityManager };

/** Keys that may name a secret or its digest; such a key is dropped whatever its value. */
const SECRET_KEY = /pass(word|code)?|secret|token|otp|code|key|cookie|hash|seed|credential_public|signature|assertion/i;
const MAX_VALUE = 256;
const MAX_ITEMS = 50;

function clip(value: string): string {
  return value.length > MAX_VALUE ? value.slice(0, MAX_VALUE) : value;
}

export function safeMetadata(metadata: AuditMetadata | undefined): string {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value === undefined || SECRET_KEY.test(key)) continue;
    if (Array.isArray(value)) safe[key] = value.slice(0, MAX_ITEMS).map((item) => clip(String(item)));
    else safe[key] = typeof value === 'string' ? clip(value) : value;
  }
  return JSON.stringify(safe);
}

export function actorOf(caller: Caller): AuditActor {
  switch (caller.kind) {
    case 'user':
    case 'mfa':
      return { type: 'user', id: caller.userId };
    case 'super_admin':
      return { type: 'super_admin' };
    default:
      return { type: 'anonymous' };
  }
}

export function auditRow(ctx: AuditContext, entry: AuditEntry): AuditLogRow {
  const actor = entry.actor ?? actorOf(ctx.caller);
  return {
    id: randomUUID(),
    actorId: actor.id ?? '',
    actorType: actor.type,
    actorEmail: clip(actor.email ?? ''),
    action: entry.action,
    resourceType: entry.resourceType ?? '',
    resourceId: clip(entry.resourceId ?? ''),
    ipAddress: (ctx.req.ip ?? '').slice(0, 64),
    userAgent: (ctx.req.userAgent ?? '').slice(0, 512),
    metadata: safeMetadata(entry.metadata),
    createdAt: ctx.deps.clock.now(),
  } as AuditLogRow;
}

/** Records the entry with the caller's transaction when there is one, else at once. */
export async function audit(ctx: AuditContext, entry: AuditEntry): Promise<void> {
  const row = auditRow(ctx, entry);
  // inTransaction first: reading a lazy `em` would fork a unit of work just to ask (kernel/context.ts).
  if (inTransaction(ctx)) {
    ctx.em!.persist(ctx.em!.create(AuditLog, row));
    return;
  }
  await ctx.deps.storage.fork().insert(AuditLog, row);
}

/** Records the entry in its own one-statement write, whatever becomes of the caller's transaction. */
export async function auditNow(ctx: AuditContext, entry: AuditEntry): Promise<void> {
  await ctx.deps.storage.fork().insert(AuditLog, auditRow(ctx, entry));
}
