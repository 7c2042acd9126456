/**
 * --custom-access-token-script (docs/configuration.md; docs/tokens.md): operator-supplied JavaScript,
 * a function `(user, tokenPayload) => extraClaims`, whose claims are added to the access token, never over a
 * reserved claim. A failing script is logged (names only, never claim values) and ignored, so logins go on.
 *
 * The script runs in a real isolate, QuickJS compiled to WebAssembly (script-sandbox/quickjs-run.ts), on a
 * worker thread (script-sandbox/script-worker.ts says why), with a time limit that covers its promise jobs
 * too and a memory cap. It sees JSON copies of the public user and the payload, never the stored row, and no
 * host object at all.
 */
import type { Logger } from 'pino';
import { RESERVED_CLAIMS } from './claims.ts';
import { ScriptWorker } from './script-sandbox/script-worker.ts';

export const CUSTOM_SCRIPT_TIMEOUT_MS = 100;

let sharedWorker: ScriptWorker | undefined;
/** Sources already reported as not compiling, so a broken script is logged once, not at every login. */
const reportedCompileFailures = new Set<string>();

/** Runs the script; answers the claims it adds, without reserved ones. Never throws. */
export async function customClaims(
  source: string | undefined,
  user: unknown,
  payload: Record<string, unknown>,
  log: Logger,
): Promise<Record<string, unknown>> {
  if (!source?.trim()) return {};
  sharedWorker ??= new ScriptWorker();
  const outcome = await sharedWorker.run({ source, user: JSON.stringify(user), payload: JSON.stringify(payload), timeout: CUSTOM_SCRIPT_TIMEOUT_MS });
  if (!outcome.ok) {
    if (!outcome.compile) log.warn({ reason: outcome.reason }, '--custom-access-token-script failed; no custom claims added');
    else if (!reportedCompileFailures.has(source)) {
      reportedCompileFailures.add(source);
      log.error({ reason: outcome.reason }, '--custom-access-token-script does not compile; it is ignored');
    }
    return {};
  }
  let result: unknown;
  try {
    result = outcome.out === undefined ? undefined : JSON.parse(outcome.out);
  } catch {
    result = undefined;
  }
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    log.warn('--custom-access-token-script did not return an object; no custom claims added');
    return {};
  }
  const extra: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (RESERVED_CLAIMS.has(name)) refused.push(name);
    else extra[name] = value;
  }
  if (refused.length > 0) log.warn({ claims: refused }, '--custom-access-token-script may not set reserved claims; ignored them');
  return extra;
}
