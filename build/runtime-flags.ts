/**
 * The Node flags the server runs with, one list for both ways of running it: sea-config.json's `execArgv`
 * (the single executable applies them at every start) and `npm start` (build/start.ts passes them to node).
 * - `--expose-gc`: server/idle-collector.ts gives memory back once a burst of load is over.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SEA_CONFIG = join(import.meta.dirname, '..', 'sea-config.json');

export function runtimeFlags(): string[] {
  const config = JSON.parse(readFileSync(SEA_CONFIG, 'utf8')) as { execArgv?: unknown };
  const flags = config.execArgv ?? [];
  if (!Array.isArray(flags) || !flags.every((flag) => typeof flag === 'string' && flag.startsWith('--'))) {
    throw new Error('sea-config.json execArgv must be a list of --flags');
  }
  return flags as string[];
}
