/**
 * The DNS challenge of an organization domain (docs/api-overview.md#resources-and-fields, "Domain challenge"): the organization publishes
 * `service-domain-verification=<token>` as a TXT record at `_service-challenge.<domain>`. The token is 32
 * random bytes (base64url), one per (organization, domain) claim, so a record published for one
 * organization never proves another's claim to the same domain. The record is public by nature (anyone can
 * read DNS), so the token is not a secret and is answered whenever asked.
 */
import { randomBytes } from 'node:crypto';

export const CHALLENGE_RECORD_TYPE = 'TXT';
const RECORD_PREFIX = '_service-challenge.';
const VALUE_PREFIX = 'service-domain-verification=';
/** How much of a wrong record an error message repeats: enough to recognise a typo, no more. */
const SHOWN_RECORD_CHARS = 100;
const SHOWN_RECORDS = 3;

export function newChallengeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function challengeRecordName(domain: string): string {
  return `${RECORD_PREFIX}${domain}`;
}

export function challengeRecordValue(token: string): string {
  return `${VALUE_PREFIX}${token}`;
}

/** True when one of the published records is exactly the expected value (its chunks already joined). */
export function recordsSatisfy(records: readonly string[], token: string): boolean {
  const expected = challengeRecordValue(token);
  return records.some((record) => record === expected);
}

/** The records found, quoted and truncated, for an error message that helps fix a typo. */
export function describeFound(records: readonly string[]): string {
  const shown = records.slice(0, SHOWN_RECORDS).map((record) => {
    const printable = record.replace(/[^\x20-\x7e]/g, '?');
    return JSON.stringify(printable.length > SHOWN_RECORD_CHARS ? `${printable.slice(0, SHOWN_RECORD_CHARS)}…` : printable);
  });
  const more = records.length > SHOWN_RECORDS ? ` and ${records.length - SHOWN_RECORDS} more` : '';
  return `${shown.join(', ')}${more}`;
}
