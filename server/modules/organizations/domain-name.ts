/**
 * Domain names as organizations claim them (docs/api-overview.md#states-and-transitions, "Org domain"): one normalised spelling per
 * domain, so that `Example.COM`, `example.com.` and `bücher.example` in Unicode or Punycode all name one row.
 * IDNs become their ASCII (Punycode, RFC 5891) form through WHATWG `domainToASCII`; then RFC 1035 section
 * 2.3.4 limits apply (labels of 1 to 63 octets, 253 in all without the root dot) and the LDH rule of
 * RFC 5890 section 2.3.1 (letters, digits, inner hyphens). At least two labels: a bare top-level name, an IP
 * address or a wildcard is not a domain an organization can own.
 */
import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';
import { AppError } from '../../kernel/errors.ts';

/**
 * URL delimiters, wildcards and spaces: domainToASCII parses a URL host, so it would read `example.com/x`
 * or `example.com:443` as `example.com`. A domain field holding them is a mistake, refused as a whole.
 */
const URL_SYNTAX = /[\s/\\:@?#[\]%*]/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The last label: letters only, or an IDN TLD in Punycode (`xn--`). Refuses numeric TLDs (IPv4-like names). */
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Multi-label public suffixes refused as a whole domain (a short list instead of the Public Suffix List, to
 * stay free of a large dependency): claiming `co.uk` would route every `*.co.uk` address's owner nowhere
 * useful and lets nobody prove anything. Single-label names (`com`) are already refused by the two-label rule.
 */
const PUBLIC_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'net.uk', 'sch.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au', 'co.nz', 'org.nz', 'net.nz',
  'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'go.jp', 'co.kr', 'or.kr', 'co.in', 'net.in', 'org.in',
  'com.br', 'net.br', 'org.br', 'com.cn', 'net.cn', 'org.cn', 'com.mx', 'com.ar', 'com.tr',
  'co.za', 'com.sg', 'com.hk', 'com.tw', 'co.il', 'com.ua', 'com.pl', 'co.id', 'com.my',
]);

/** The normalised domain, or undefined when `input` is not an acceptable domain name. */
export function normaliseDomain(input: string): string | undefined {
  let name = input.trim();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (!name || name.length > 1024 || isIP(name) || URL_SYNTAX.test(name)) return undefined;
  // domainToASCII lowercases, maps Unicode (UTS 46) and answers '' for what is not a valid host.
  const ascii = domainToASCII(name);
  if (!ascii || ascii.length > 253 || isIP(ascii)) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  if (!TOP_LABEL.test(labels[labels.length - 1]!)) return undefined;
  if (PUBLIC_SUFFIXES.has(ascii)) return undefined;
  return ascii;
}

/** The normalised domain, or invalid_argument naming the rule. */
export function checkedDomain(input: string): string {
  const domain = normaliseDomain(input);
  if (!domain) {
    throw AppError.invalid('domain: give a registrable host name such as example.com (at least two labels of letters, digits and inner hyphens, each at most 63 characters, 253 in all; no IP address, wildcard or public suffix)');
  }
  return domain;
}

/** The normalised domain part of an email address (after the last '@'), or undefined when it has none valid. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return undefined;
  return normaliseDomain(email.slice(at + 1));
}
