/**
 * Every check of a presented --admin-secret, by admin login or by the x-service-admin-secret header, goes
 * through here: it is one secret, so guesses over either door share one budget (OWASP ASVS 2.2.1).
 *
 * - Wrong secrets are counted per client address (an IPv6 client by its /64) and in a total over all
 *   addresses (modules/limits/policies.ts ADMIN_SECRET_ADDRESS_TIERS and ADMIN_SECRET_TOTAL_TIERS: windows of
 *   growing length, so the wait grows with repeated failures). A right secret costs nothing: the header rides
 *   on every admin operation, and one GraphQL document runs its admin root fields (aliases) each through this
 *   check, so counting right secrets would make a legitimate batch look like a flood. Guesses made at the
 *   same instant are each compared before their count lands, so a burst may overshoot an allowance by the
 *   number in flight; the per-IP request limit bounds that burst, and the next attempt is refused.
 * - Once an allowance is spent the answer is 429 with Retry-After and the secret is not compared at all, so
 *   even the right one is refused: otherwise the refusal would tell a guess apart and the limit would be an
 *   oracle.
 * - The total stops a botnet, which would otherwise get every address's allowance; but a flood of wrong
 *   guesses from anywhere would then lock the real administrator out too (ASVS 2.2.1 asks for controls that
 *   resist "account lockout attacks"). So an address that presented the right secret within the last two
 *   weeks (ADMIN_KNOWN_ADDRESS_SECONDS) is held by its own per-address allowance only: the administrator's
 *   usual workstation or automation host keeps working through a flood, and an attacker cannot make an
 *   address known without the secret. A new address during a flood waits for the total's window to end.
 * - Every wrong or refused attempt is audited at once (`admin.login_failed`, with the client IP, the door
 *   and the reason; never what was typed), outside any transaction, so the refusal does not roll it back.
 */
import { AppError } from '../../kernel/errors.ts';
import type { OpContext } from '../../kernel/context.ts';
import { limitRefusal, type LimitBucket } from '../../kernel/limits.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { auditNow } from '../audit/index.ts';
import { ADMIN_SECRET_LIMIT_MESSAGE, clientKey } from '../limits/index.ts';

/** How the secret was presented: the admin_login operation, or the header on any admin operation. */
export type AdminSecretDoor = 'login' | 'header';

/** The one key of the all-addresses bucket. */
const TOTAL_KEY = 'all';

type GuardContext = Pick<OpContext, 'deps' | 'req' | 'caller'>;

async function auditFailure(ctx: GuardContext, door: AdminSecretDoor, reason: 'wrong_secret' | 'rate_limited'): Promise<void> {
  await auditNow(ctx, {
    action: 'admin.login_failed',
    actor: { type: 'anonymous' },
    resourceType: 'admin_session',
    metadata: { reason, via: door },
  });
}

function isLimitRefusal(err: unknown): err is AppError {
  return err instanceof AppError && err.kind === 'too_many_requests';
}

/** Seconds the caller must wait before any secret is compared again (0: it may try now). */
async function waitBeforeComparing(ctx: GuardContext, address: string, known: boolean): Promise<number> {
  const { limits } = ctx.deps;
  const own = await limits.retryAfter('admin_secret_failure', address);
  return known ? own : Math.max(own, await limits.retryAfter('admin_secret_failure_total', TOTAL_KEY));
}

/** Counts a wrong secret; an allowance it spends refuses the next attempt, not this one (already refused). */
async function countFailure(ctx: GuardContext, address: string, known: boolean): Promise<void> {
  const { limits } = ctx.deps;
  const consume = (bucket: LimitBucket, key: string) =>
    limits.consume(bucket, key).catch((err: unknown) => {
      if (!isLimitRefusal(err)) throw err;
    });
  await consume('admin_secret_failure', address);
  if (!known) await consume('admin_secret_failure_total', TOTAL_KEY);
}

/**
 * Whether `candidate` is the --admin-secret. Throws too_many_requests (with Retry-After) without comparing
 * while the caller's address or the total is over its allowance. Wrong and refused attempts are audited.
 */
export async function checkAdminSecret(ctx: GuardContext, candidate: string, door: AdminSecretDoor): Promise<boolean> {
  const { limits, config } = ctx.deps;
  const address = clientKey(ctx.req.ip ?? '');
  const known = (await limits.counted('admin_known_address', address)) > 0;
  const wait = await waitBeforeComparing(ctx, address, known);
  if (wait > 0) {
    await auditFailure(ctx, door, 'rate_limited');
    throw limitRefusal('admin_secret_failure', ADMIN_SECRET_LIMIT_MESSAGE, wait);
  }
  // Constant time (kernel/crypto.ts hashes both sides first), so the comparison leaks neither prefix nor length.
  if (constantTimeEqual(candidate, config.adminSecret ?? '')) {
    if (!known) await limits.consume('admin_known_address', address);
    return true;
  }
  await countFailure(ctx, address, known);
  await auditFailure(ctx, door, 'wrong_secret');
  return false;
}
