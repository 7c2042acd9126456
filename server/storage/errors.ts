/**
 * Driver-neutral answers about database errors: a unique-key clash (so a service can answer
 * already_exists instead of internal), and connection failures worded without secrets
 * (docs/errors.md: nothing secret in logs or error messages).
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';

/** SQLite extended result codes SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY. */
const SQLITE_UNIQUE_CODES = new Set([2067, 1555]);

interface DriverErrorShape {
  name?: unknown;
  code?: unknown;
  errno?: unknown;
  errcode?: unknown;
  message?: unknown;
  cause?: unknown;
}

function isDuplicateKeyShape(err: DriverErrorShape): boolean {
  if (err.name === 'UniqueConstraintViolationException') return true;
  if (err.code === '23505') return true; // PostgreSQL unique_violation
  if (err.code === 'ER_DUP_ENTRY' || err.errno === 1062) return true; // MySQL, MariaDB
  if (err.code === 11000 || err.code === 11001) return true; // MongoDB duplicate key
  if (typeof err.errcode === 'number' && SQLITE_UNIQUE_CODES.has(err.errcode)) return true;
  return typeof err.message === 'string' && /^UNIQUE constraint failed|PRIMARY KEY constraint failed/.test(err.message);
}

/**
 * True when `err` (a MikroORM exception or a raw driver error, possibly wrapped as `cause`) reports
 * a duplicate value in a unique index or primary key, on any supported database.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let current = err, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof UniqueConstraintViolationException) return true;
    if (isDuplicateKeyShape(current as DriverErrorShape)) return true;
    current = (current as DriverErrorShape).cause;
  }
  return false;
}

/** Replaces every secret (and its URL-encoded form) and any URL user-info password with [redacted]. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('[redacted]');
  }
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/:@\s]*):[^@\s/]*@/gi, '$1:[redacted]@');
}

/** The first line of a driver error's message (or its code when the message is empty, as for ECONNREFUSED). */
export function describeDriverError(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; errors?: unknown };
  let message = typeof e?.message === 'string' ? e.message.split('\n')[0]!.trim() : '';
  // An AggregateError (one attempt per resolved address) has an empty message; its parts say why.
  if (!message && Array.isArray(e?.errors) && e.errors.length > 0) message = describeDriverError(e.errors[0]);
  if (!message && typeof e?.code === 'string') message = e.code;
  return message || String(err);
}
