/**
 * The in-memory answer to "is this token still honoured?" that keeps the database off the validation path
 * while revocation stays immediate (reference.md "Tokens are stateful"). buildApp() opens one per app and
 * closes it last; Deps.tokenState is added here by declaration merging so the kernel imports nothing of it.
 *
 * Placeholder: nothing is cached yet, so every validation reads the database as before.
 */
import type { Logger } from 'pino';
import type { Config } from '../../../config/flags.ts';
import type { Storage } from '../../../storage/types.ts';

export interface TokenStateCache {
  close(): Promise<void>;
}

declare module '../../../kernel/deps.ts' {
  interface Deps {
    /** Live token records and active users held in memory (modules/tokens/state-cache). */
    readonly tokenState?: TokenStateCache;
  }
}

export async function openTokenStateCache(_config: Config, _storage: Storage, _logger: Logger): Promise<TokenStateCache> {
  return { async close() {} };
}
