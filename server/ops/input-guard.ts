/**
 * The first look at every operation input, whatever the protocol, before the schema check (OWASP ASVS 5.0
 * V1.3 / V2.2 input validation; docs/errors.md):
 * - nesting is bounded (MAX_INPUT_DEPTH): free-form Map values could otherwise nest until a recursive walk
 *   overflows the stack and the request answers 500;
 * - text is checked once, here, for every field of every operation: control characters other than tab, LF
 *   and CR (NUL above all, which PostgreSQL refuses in text and C libraries read as an end of string) and
 *   lone surrogates (invalid UTF-16, which cannot be encoded as UTF-8 for a database, a JWT or a reply)
 *   are refused naming the field; object keys alike;
 * - `__proto__` keys are refused: copying one onto a plain object would replace its prototype.
 * The walk is iterative and visits each value once, so its cost is linear in the input and needs no stack.
 */
import { AppError } from '../kernel/errors.ts';

/** Far above any real input (a JSON claim object three or four levels deep), far below the stack. */
export const MAX_INPUT_DEPTH = 32;

/** C0 controls and DEL, except tab, LF and CR (U+0009, U+000A, U+000D). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Container = Record<string, unknown> | unknown[];

interface Frame {
  source: object;
  target: Container;
  depth: number;
  parent?: Frame;
  key?: string | number;
}

const MAX_KEY_IN_MESSAGE = 40;

function keyText(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  const printable = key.replace(/[^\u0020-\u007E]/g, '?');
  return printable.length > MAX_KEY_IN_MESSAGE ? `${printable.slice(0, MAX_KEY_IN_MESSAGE)}...` : printable;
}

/** `a.b[2].c`, built only when a refusal needs it; the middle of a very deep path is elided. */
export function pathOf(frame: Frame | undefined, last?: string | number): string {
  const keys: Array<string | number> = last === undefined ? [] : [last];
  for (let f = frame; f?.key !== undefined; f = f.parent) keys.push(f.key);
  keys.reverse();
  const text = (list: Array<string | number>) => list.map((k) => (typeof k === 'number' ? keyText(k) : `.${keyText(k)}`)).join('');
  const whole = keys.length > 8 ? `${text(keys.slice(0, 4))}...${text(keys.slice(-3))}` : text(keys);
  return whole.replace(/^\./, '').replace(/^\[/, 'input[') || 'input';
}

/** Why a string may not enter, or undefined when it may. */
export function textProblem(text: string): string | undefined {
  const control = CONTROL.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `must not contain control characters (found U+${code})`;
  }
  if (LONE_SURROGATE.test(text)) return 'is not well-formed Unicode (a lone UTF-16 surrogate)';
  return undefined;
}

function checkText(text: string, frame: Frame | undefined, key: string | number | undefined, what = ''): void {
  const problem = textProblem(text);
  if (problem) throw AppError.invalid(`${pathOf(frame, key)}${what}: ${problem}`);
}

/** One value of a frame: text is checked, a list or object gets an empty copy filled from the stack later. */
function guardedValue(value: unknown, frame: Frame, key: string | number, stack: Frame[]): unknown {
  if (typeof value === 'string') {
    checkText(value, frame, key);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const copy: Container = Array.isArray(value) ? [] : {};
  stack.push({ source: value, target: copy, depth: frame.depth + 1, parent: frame, key });
  return copy;
}

/**
 * A copy of `raw` without nulls and undefined values in objects (so "absent" has one spelling; list items
 * are kept as they are), refusing what the header above names.
 */
export function guardInput(raw: unknown): unknown {
  if (typeof raw === 'string') checkText(raw, undefined, undefined);
  if (raw === null || typeof raw !== 'object') return raw;
  const root: Container = Array.isArray(raw) ? [] : {};
  const stack: Frame[] = [{ source: raw, target: root, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > MAX_INPUT_DEPTH) {
      throw AppError.invalid(`${pathOf(frame)}: nests deeper than ${MAX_INPUT_DEPTH} levels`);
    }
    if (Array.isArray(frame.source)) {
      const target = frame.target as unknown[];
      const items = frame.source as unknown[];
      for (let index = 0; index < items.length; index += 1) {
        const value = items[index];
        if (value !== undefined) target.push(guardedValue(value, frame, index, stack));
      }
      continue;
    }
    const target = frame.target as Record<string, unknown>;
    const record = frame.source as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === '__proto__') throw AppError.invalid(`${pathOf(frame, '__proto__')}: the key __proto__ is not allowed`);
      checkText(key, frame, key, ' (the key)');
      const value = record[key];
      if (value !== undefined && value !== null) target[key] = guardedValue(value, frame, key, stack);
    }
  }
  return root;
}

interface CopyFrame {
  source: object;
  target: Container;
}

/** A Date as it is; a list or object as an empty copy that the walk fills from `stack` later. */
function copyOf(item: object, stack: CopyFrame[]): unknown {
  if (item instanceof Date) return item;
  const copy: Container = Array.isArray(item) ? [] : {};
  stack.push({ source: item, target: copy });
  return copy;
}

/** `dropNulls` for values the server made (outputs): no refusals, any depth, no recursion. */
export function copyWithoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const root: Container = Array.isArray(value) ? [] : {};
  const stack: CopyFrame[] = [{ source: value, target: root }];
  while (stack.length > 0) {
    const { source, target } = stack.pop()!;
    if (Array.isArray(source)) {
      // List items keep their nulls (a list's positions mean something); undefined has no JSON spelling.
      for (const item of source as unknown[]) {
        if (item !== undefined) (target as unknown[]).push(item !== null && typeof item === 'object' ? copyOf(item, stack) : item);
      }
      continue;
    }
    const record = source as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (item === undefined || item === null) continue;
      const copy = typeof item === 'object' ? copyOf(item, stack) : item;
      // Assigning `__proto__` would replace the copy's prototype; every other key is a plain own property.
      if (key === '__proto__') Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else (target as Record<string, unknown>)[key] = copy;
    }
  }
  return root;
}
