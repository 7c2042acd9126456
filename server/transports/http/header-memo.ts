/**
 * A pure function of one request header value, remembered for the values seen most recently. Browsers send
 * the same few Origin values on every request, and parsing one as a URL and matching it against
 * --allowed-origins costs more than the rest of the HTTP policy. Any value (an attacker's too) only ever
 * maps to what `compute` says of it; a flood of distinct values clears the memo, it never grows past
 * MEMO_LIMIT entries.
 */

/** Distinct header values remembered per memo; past that the memo starts over (memory stays bounded). */
export const MEMO_LIMIT = 512;

export function memoized<V>(compute: (value: string) => V): (value: string) => V {
  const memo = new Map<string, V>();
  return (value) => {
    let answer = memo.get(value);
    if (answer === undefined && !memo.has(value)) {
      answer = compute(value);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(value, answer);
    }
    return answer as V;
  };
}
