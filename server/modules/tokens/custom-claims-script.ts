/**
 * --custom-access-token-script (specification part 1; reference.md "Tokens"): operator-supplied JavaScript,
 * a function `(user, tokenPayload) => extraClaims`, run in node:vm with a time limit. Its claims are added
 * to the access token, never over a reserved claim. The script sees copies (JSON in, JSON out) of the public
 * user and the payload, never the stored row. node:vm is not a security boundary against hostile code; the
 * script is the operator's own configuration, and the sandbox only keeps a buggy script (a loop, a throw,
 * a stray global) from hanging or breaking a login. A failing script is logged and ignored.
 */
import vm from 'node:vm';
import type { Logger } from 'pino';
import { RESERVED_CLAIMS } from './claims.ts';

export const CUSTOM_SCRIPT_TIMEOUT_MS = 100;

/** Compiled scripts by source; null marks a source that does not compile (logged once). */
const compiled = new Map<string, vm.Script | null>();

function compile(source: string, log: Logger): vm.Script | null {
  if (compiled.has(source)) return compiled.get(source)!;
  // The source is a function expression; a trailing semicolon would not survive the parentheses.
  const fn = source.trim().replace(/;+\s*$/, '');
  let script: vm.Script | null = null;
  try {
    script = new vm.Script(`'use strict'; JSON.stringify((${fn}\n)(JSON.parse(__user), JSON.parse(__payload)) ?? {})`, {
      filename: 'custom-access-token-script.js',
    });
  } catch (err) {
    log.error({ reason: (err as Error).message }, '--custom-access-token-script does not compile; it is ignored');
  }
  compiled.set(source, script);
  return script;
}

/** Runs the script; answers the claims it adds, without reserved ones. Never throws. */
export function customClaims(source: string | undefined, user: unknown, payload: Record<string, unknown>, log: Logger): Record<string, unknown> {
  if (!source?.trim()) return {};
  const script = compile(source, log);
  if (!script) return {};
  let result: unknown;
  try {
    const context = vm.createContext(
      { __user: JSON.stringify(user), __payload: JSON.stringify(payload) },
      // No eval/new Function/wasm inside, and promise jobs count against the same time limit.
      { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' },
    );
    const out = script.runInContext(context, { timeout: CUSTOM_SCRIPT_TIMEOUT_MS, breakOnSigint: false });
    result = typeof out === 'string' ? JSON.parse(out) : undefined;
  } catch (err) {
    log.warn({ reason: (err as Error)?.message ?? String(err) }, '--custom-access-token-script failed; no custom claims added');
    return {};
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
  // Only names are logged: claim values may carry personal data.
  if (refused.length > 0) log.warn({ claims: refused }, '--custom-access-token-script may not set reserved claims; ignored them');
  return extra;
}
