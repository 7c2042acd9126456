/**
 * The JSON body parser's nesting bound (transports/http/json-body.ts, RFC 8259 section 9): depthExceededAt
 * skips its character scan when the text holds too few opening brackets to nest past the limit. For any
 * text, the answer must be what the full scan answers (the first offset past the limit, or -1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { depthExceededAt, MAX_JSON_DEPTH } from '../../server/transports/http/json-body.ts';

/** The scan alone: the first offset where nesting passes `limit`, strings (and their escapes) skipped. */
function scanned(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      depth += 1;
      if (depth > limit) return i;
    } else if (c === '}' || c === ']') depth -= 1;
  }
  return -1;
}

const jsonish = fc.array(fc.constantFrom('{', '[', '}', ']', '"', '\\', 'a', ':', ','), { maxLength: 200 }).map((chars) => chars.join(''));

test('answers what the full scan answers, for any text and limit', () => {
  fc.assert(
    fc.property(jsonish, fc.integer({ min: 0, max: 12 }), (text, limit) => {
      assert.equal(depthExceededAt(text, limit), scanned(text, limit));
    }),
    { numRuns: 5000 },
  );
});

test('brackets inside strings count toward the quick check but never toward the depth', () => {
  const quoted = JSON.stringify({ value: '['.repeat(MAX_JSON_DEPTH * 2) });
  assert.equal(depthExceededAt(quoted, MAX_JSON_DEPTH), -1);
  const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
  assert.equal(depthExceededAt(deep, MAX_JSON_DEPTH), MAX_JSON_DEPTH);
  assert.equal(depthExceededAt('{"a":[{"b":[1]}]}', 3), 11);
  assert.equal(depthExceededAt('{"a":[{"b":[1]}]}', 4), -1);
});
