/**
 * Checks of what an admin registers (docs/operations.md: `_add_webhook`, `_update_webhook`,
 * `_test_endpoint`): one of the thirteen event names, an http(s) endpoint, and headers that cannot split
 * a request or impersonate the signature.
 */
import { AppError } from '../../kernel/errors.ts';
import { EVENT_NAMES, isEventName, type EventName } from '../events/index.ts';
import { isLocalName, isRefusedAddress, literalAddress, PRIVATE_ADDRESS_MESSAGE } from './address-policy.ts';

export const MAX_HEADERS = 20;
const MAX_HEADER_NAME = 128;
const MAX_HEADER_VALUE = 2048;
/** RFC 9110 section 5.1: field-name = token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 section 5.5: visible characters, spaces and tabs; never CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * Headers the server sets itself: the signature and delivery id must be the server's, and the framing ones
 * (RFC 9112 section 6) would let a header desynchronise the request from its body.
 */
const RESERVED_HEADERS = new Set([
  'content-type', 'content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te',
  'trailer', 'expect', 'proxy-connection', 'x-service-signature', 'x-service-delivery',
]);

export function checkedEventName(value: string): EventName {
  if (!isEventName(value)) {
    throw AppError.invalid(`event_name: unknown event ${JSON.stringify(value.slice(0, 64))}; one of ${EVENT_NAMES.join(', ')}`);
  }
  return value;
}

/** docs/events.md: the default description is the event name with dots as spaces. */
export function descriptionFor(eventName: string, description: string | undefined): string {
  const trimmed = description?.trim();
  return trimmed ? trimmed : eventName.replaceAll('.', ' ');
}

/**
 * An absolute http(s) URL without credentials (they would be sent to whoever the host is, and a `user@host`
 * form disguises the host, RFC 3986 section 7.6). A literal internal address or `localhost` is refused here
 * already; a name's addresses are checked when it is called (address-policy.ts).
 */
export function checkedEndpoint(value: string, allowPrivate: boolean): string {
  const endpoint = value.trim();
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw AppError.invalid('endpoint: not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw AppError.invalid('endpoint: only http and https URLs are allowed');
  if (!/^https?:\/\/[^/\\]/i.test(endpoint) || endpoint.includes('\\')) throw AppError.invalid('endpoint: not of the form scheme://host/...');
  if (url.username || url.password) throw AppError.invalid('endpoint: must not carry credentials; send them in headers');
  if (/\s/.test(endpoint)) throw AppError.invalid('endpoint: whitespace is not allowed');
  if (!allowPrivate) {
    const literal = literalAddress(url.hostname);
    if ((literal && isRefusedAddress(literal)) || isLocalName(url.hostname)) throw AppError.invalid(`endpoint: ${PRIVATE_ADDRESS_MESSAGE}`);
  }
  return endpoint;
}

export function checkedHeaders(value: Record<string, unknown> | undefined): Record<string, string> {
  if (!value) return {};
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) throw AppError.invalid(`headers: at most ${MAX_HEADERS}`);
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    if (name.length === 0 || name.length > MAX_HEADER_NAME || !TOKEN.test(name)) {
      throw AppError.invalid(`headers: ${JSON.stringify(name.slice(0, MAX_HEADER_NAME))} is not a valid header name`);
    }
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) throw AppError.invalid(`headers: ${name} is set by the server and cannot be overridden`);
    if (seen.has(lower)) throw AppError.invalid(`headers: ${name} is given twice`);
    seen.add(lower);
    if (typeof raw !== 'string') throw AppError.invalid(`headers: the value of ${name} must be a string`);
    if (raw.length > MAX_HEADER_VALUE || !FIELD_VALUE.test(raw)) {
      throw AppError.invalid(`headers: the value of ${name} must be at most ${MAX_HEADER_VALUE} characters without CR, LF or other control characters`);
    }
    headers[name] = raw;
  }
  return headers;
}
