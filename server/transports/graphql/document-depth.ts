/**
 * Nesting bound of a GraphQL document, checked on the text before graphql-js parses it. graphql-js's parser
 * is recursive descent: a selection set or a list/object literal nested a few thousand deep (well inside
 * the 10,000-token cap) overflows the stack, and the request answered 500 INTERNAL. Every recursive
 * construct of the grammar (GraphQL spec, October 2021, section 2: selection sets and object values `{}`,
 * list values and list types `[]`, arguments and variable definitions `()`) opens a bracket, so one linear
 * pass counting brackets outside strings and comments bounds the parser's recursion (OWASP ASVS 5.0 V2.4;
 * OWASP GraphQL Cheat Sheet, "Query depth limiting").
 */

/** Far above any real document of this schema (its deepest output object is a few levels down). */
export const MAX_DOCUMENT_DEPTH = 32;

const HASH = 0x23;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPENERS = new Set([0x7b, 0x5b, 0x28]); // { [ (
const CLOSERS = new Set([0x7d, 0x5d, 0x29]); // } ] )

function isBlockQuote(text: string, i: number): boolean {
  return text.charCodeAt(i) === QUOTE && text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE;
}

/** The end (exclusive) of the string token starting at `start`, or the text's length if it never closes. */
function skipString(text: string, start: number): number {
  if (isBlockQuote(text, start)) {
    for (let i = start + 3; i < text.length; i += 1) {
      if (text.charCodeAt(i) === BACKSLASH && isBlockQuote(text, i + 1)) i += 3;
      else if (isBlockQuote(text, i)) return i + 3;
    }
    return text.length;
  }
  for (let i = start + 1; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 1;
    else if (code === QUOTE || code === NEWLINE || code === CARRIAGE_RETURN) return i + 1;
  }
  return text.length;
}

/** The deepest bracket nesting of the document, stopping as soon as it passes `limit`. */
export function documentDepth(text: string, limit = MAX_DOCUMENT_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    if (code === HASH) {
      while (i < text.length && text.charCodeAt(i) !== NEWLINE && text.charCodeAt(i) !== CARRIAGE_RETURN) i += 1;
      continue;
    }
    if (OPENERS.has(code)) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (CLOSERS.has(code)) {
      depth -= 1;
    }
    i += 1;
  }
  return deepest;
}
