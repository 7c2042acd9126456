/** Config and a log-capturing logger for the email and SMS tests (no server needed). */
import { tmpdir } from 'node:os';
import { createLogger } from '../../server/kernel/logger.ts';
import { parseConfig } from '../../server/config/parse.ts';
import type { Config } from '../../server/config/flags.ts';
import { baseFlags } from '../support/app.ts';

export function configWith(flags: string[]): Config {
  return parseConfig([...baseFlags(tmpdir()), ...flags]);
}

/** A real pino logger at debug level whose JSON lines are kept for inspection. */
export function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  return { logger, lines, text: () => lines.join('') };
}
