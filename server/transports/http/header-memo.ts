/**
 * A pure function of one request header value, remembered for the values seen most recently. Browsers send
 * the same few Origin values on every request, and parsing one as a URL and matching it against
 * --allowed-origins costs more than the rest of the HTTP policy. Any value (an attacker's too) only ever
 * maps to what `compute` says of it; a flood of distinct values pushes out the oldest, the memo never grows
 * past MEMO_LIMIT entries.
 */
import { BoundedMap } from '../../kernel/bounded-map.ts';

/** Distinct header values remembered per memo; past that the oldest written is dropped (memory stays bounded). */
export const MEMO_LIMIT = 512;

export function memoized<V>(compute: (value: string) => V): (value: string) => V {
  // Answers are boxed so that a computed `undefined` is remembered too, in one lookup.
  const memo = new BoundedMap<string, { answer: V }>(MEMO_LIMIT);
  return (value) => {
    let entry = memo.get(value);
    if (entry === undefined) {
      entry = { answer: compute(value) };
      memo.set(value, entry);
    }
    return entry.answer;
  };
}
