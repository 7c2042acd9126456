/**
 * The LogoutResponse to an SP's LogoutRequest (SAML 2.0 Core 3.7.2), sent to its registered
 * SingleLogoutService by the binding registered with it, and signed either way (the SP checks it as it
 * checks responses; Profiles 4.4.4.2):
 *
 * - HTTP-POST (Bindings 3.5): the XML carries an enveloped signature (signed-response.ts signElement) and is
 *   posted base64 by an auto-posting form;
 * - HTTP-Redirect (Bindings 3.4.4.1): the XML carries no signature; it is DEFLATE-compressed, base64 and
 *   URL-encoded into SAMLResponse, and the query `SAMLResponse=…&RelayState=…&SigAlg=…` (RelayState only
 *   when the request had one, each value exactly as it appears in the URL) is signed with the organization's
 *   current key by RSA-SHA256 (RFC 6931 section 2.3.2), the signature added as Signature.
 *
 * Success when this browser's session with us ended or none was there; Requester when the request named
 * someone other than the signed-in user (nothing ended).
 */
import { sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { escapeXml } from '../../kernel/xml-text.ts';
import { newId, signElement, type ResponseInput } from './signed-response.ts';
import type { SloBinding } from './sp-fields.ts';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const REQUESTER = 'urn:oasis:names:tc:SAML:2.0:status:Requester';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export interface LogoutResponseInput {
  idpEntityId: string;
  sloUrl: string;
  inResponseTo: string;
  success: boolean;
  relayState?: string;
  now: Date;
  signingKey: ResponseInput['signingKey'];
}

/** How the answer reaches the SP: a redirect to this URL, or a form posting these fields to `action`. */
export type LogoutAnswer = { binding: 'redirect'; location: string } | { binding: 'post'; action: string; fields: Record<string, string> };

function unsignedXml(input: LogoutResponseInput, id: string): string {
  return [
    `<samlp:LogoutResponse xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${id}" Version="2.0" IssueInstant="${input.now.toISOString()}" Destination="${escapeXml(input.sloUrl)}" InResponseTo="${escapeXml(input.inResponseTo)}">`,
    `<saml:Issuer>${escapeXml(input.idpEntityId)}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${input.success ? SUCCESS : REQUESTER}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
}

/** The LogoutResponse with its enveloped signature, as XML text (HTTP-POST). */
export async function signedLogoutResponseXml(input: LogoutResponseInput): Promise<string> {
  const { SignedXml } = await import('xml-crypto');
  const id = newId();
  return signElement(SignedXml, unsignedXml(input, id), 'LogoutResponse', id, input.signingKey);
}

/** Bindings 3.4.4.1: the SP's URL with SAMLResponse, RelayState, SigAlg and Signature appended. */
export function redirectLogoutResponseUrl(input: LogoutResponseInput): string {
  const deflated = deflateRawSync(Buffer.from(unsignedXml(input, newId()), 'utf8')).toString('base64');
  const signed = [`SAMLResponse=${encodeURIComponent(deflated)}`];
  if (input.relayState !== undefined) signed.push(`RelayState=${encodeURIComponent(input.relayState)}`);
  signed.push(`SigAlg=${encodeURIComponent(RSA_SHA256)}`);
  const query = signed.join('&');
  const signature = sign('sha256', Buffer.from(query, 'utf8'), input.signingKey.privateKeyPem).toString('base64');
  // A URL that already has a query keeps it; the SAML parameters follow it.
  const separator = input.sloUrl.includes('?') ? '&' : '?';
  return `${input.sloUrl}${separator}${query}&Signature=${encodeURIComponent(signature)}`;
}

export async function logoutAnswer(binding: SloBinding, input: LogoutResponseInput): Promise<LogoutAnswer> {
  if (binding === 'redirect') return { binding, location: redirectLogoutResponseUrl(input) };
  const xml = await signedLogoutResponseXml(input);
  return {
    binding,
    action: input.sloUrl,
    fields: { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), ...(input.relayState !== undefined ? { RelayState: input.relayState } : {}) },
  };
}
