/**
 * The server's checks of a webhook (server/modules/webhooks/webhook-input.ts), run in the form so the error
 * sits beside its field; the server checks again and its message is shown if it still refuses.
 */
export const MAX_HEADERS = 20;
export const MAX_HEADER_NAME = 128;
export const MAX_HEADER_VALUE = 2048;
export const MAX_ENDPOINT = 2048;
export const MAX_DESCRIPTION = 255;

/** RFC 9110 section 5.1: field-name = token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 section 5.5: visible characters, spaces and tabs; never CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Set by the server itself: the signature, the delivery id and the framing headers (RFC 9112 section 6). */
const RESERVED = new Set([
  'content-type', 'content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te',
  'trailer', 'expect', 'proxy-connection', 'x-service-signature', 'x-service-delivery',
]);

export type HeaderNameProblem = 'headerNameBad' | 'headerNameReserved' | undefined;

export function headerNameProblem(name: string): HeaderNameProblem {
  if (!TOKEN.test(name) || name.length > MAX_HEADER_NAME) return 'headerNameBad';
  return RESERVED.has(name.toLowerCase()) ? 'headerNameReserved' : undefined;
}

export function isHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value) && value.length <= MAX_HEADER_VALUE;
}

/** An absolute http(s) URL of the form scheme://host/… without credentials or whitespace. */
export function isEndpoint(value: string): boolean {
  const endpoint = value.trim();
  if (!/^https?:\/\/[^/\\\s]/i.test(endpoint) || /\s|\\/.test(endpoint)) return false;
  try {
    const url = new URL(endpoint);
    return !url.username && !url.password;
  } catch {
    return false;
  }
}
