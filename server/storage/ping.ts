/**
 * Health probe of the database for /healthz and /readyz (docs/api-overview.md#http-endpoints-outside-v1, docs/errors.md): a
 * trivial round trip, bounded in time so a vanished database gives a quick "unhealthy" instead of a
 * request that hangs until the driver's own timeouts fire.
 */
import type { MikroORM } from '@mikro-orm/core';

export const PING_TIMEOUT_MS = 2_000;

/** Resolves `fallback` when `work` has not settled within `ms` (the work itself is left to finish). */
export function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function pingDatabase(orm: MikroORM, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
  const probe = orm.checkConnection().then(
    (result) => result.ok,
    () => false,
  );
  return withTimeout(probe, timeoutMs, false);
}
