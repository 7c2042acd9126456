/**
 * The application/json body parser of every HTTP route (REST and /graphql). Before JSON.parse, one linear
 * pass over the text refuses arrays and objects nested deeper than MAX_JSON_DEPTH, so no later walk of the
 * body (ours, graphql-js's, TypeBox's) can overflow the stack on a 1 MiB body of brackets (OWASP ASVS 5.0
 * V2.4 resource limits; RFC 8259 section 9: "An implementation may set limits on ... the maximum depth of
 * nesting"). The parse itself stays Fastify's own (secure-json-parse), which refuses `__proto__` and
 * `constructor.prototype` keys (prototype poisoning).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../kernel/errors.ts';

/** The operations' own bound (ops/input-guard.ts) is lower and names the field; this one guards the parse. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` holds more than `limit` opening brackets, strings included (indexOf runs at memory speed;
 * a body of a few brackets, as nearly every body is, then needs no scan).
 */
function bracketsExceed(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) if (++count > limit) return true;
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) if (++count > limit) return true;
  return false;
}

/** The first offset where nesting passes `limit`, or -1. Strings are skipped, escapes included. */
export function depthExceededAt(text: string, limit: number): number {
  // Nesting deeper than `limit` needs more than `limit` opening brackets.
  if (!bracketsExceed(text, limit)) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return i;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return -1;
}

export function registerJsonBodyParser(http: FastifyInstance): void {
  const parse = http.getDefaultJsonParser('error', 'error');
  http.removeContentTypeParser('application/json');
  http.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    const at = depthExceededAt(text, MAX_JSON_DEPTH);
    if (at >= 0) {
      done(Object.assign(AppError.invalid(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels (at offset ${at})`), { statusCode: 400 }), undefined);
      return;
    }
    parse(request, text, done);
  });
}
