/**
 * Reading and validating an AuthnRequest sent to /saml/<organization>/sso (SAML 2.0 Core 3.4.1, Bindings
 * 3.4 HTTP-Redirect and 3.5 HTTP-POST, Profiles 4.1.4.1). Checked, in order:
 *
 * - the message: a size bound before and after inflating (a DEFLATE bomb stays bounded), base64, no DOCTYPE
 *   or ENTITY, well-formed (safe-xml.ts); a samlp:AuthnRequest of Version 2.0 with an ID;
 * - freshness: IssueInstant no older than five minutes and not in the future, two minutes of skew;
 * - the Issuer: an active service provider of this organization (Profiles 4.1.4.1: the request names its SP);
 * - Destination, when given, is this SSO address (Core 3.2.1);
 * - the signature, required when the SP is registered with a certificate: over the query string for
 *   HTTP-Redirect (Bindings 3.4.4.1, the URL-encoded octets as received), or an enveloped XML signature of
 *   the request element itself for HTTP-POST (Core 5.4.2), SHA-256 or stronger only (RFC 6931: SHA-1 is
 *   legacy); the key in the message is never trusted, only the registered certificate;
 * - the ACS: AssertionConsumerServiceURL equal to a registered one, or AssertionConsumerServiceIndex naming
 *   one, else the default; ProtocolBinding, when given, HTTP-POST (the only binding answered).
 *
 * ForceAuthn and IsPassive (Core 3.4.1) are read for the endpoint: a fresh sign-in, or no interaction.
 *
 * Errors are SamlRequestError, whose message names the rule broken and nothing of the XML.
 */
import { createPublicKey, verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/core';
import type { SamlServiceProviderRow } from './saml-idp.entities.ts';
import { findActiveServiceProvider } from './service-providers.service.ts';
import { UnsafeXmlError, childElements, descendants, parseSafeXml } from './safe-xml.ts';
import { HTTP_POST } from './sp-fields.ts';

export const MAX_SAML_REQUEST_CHARS = 64 * 1024;
const MAX_XML_CHARS = 128 * 1024;
export const REQUEST_MAX_AGE_MS = 5 * 60 * 1000;
export const CLOCK_SKEW_MS = 2 * 60 * 1000;
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const MAX_ID = 256;
/** Query-string signature algorithms (RFC 6931 section 2.3.2 and 2.3.6), SHA-2 only. */
const REDIRECT_ALGORITHMS: Record<string, { hash: string; ec: boolean }> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': { hash: 'sha256', ec: false },
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': { hash: 'sha512', ec: false },
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256': { hash: 'sha256', ec: true },
};
const SHA1_ALGORITHMS = new Set(['http://www.w3.org/2000/09/xmldsig#rsa-sha1', 'http://www.w3.org/2000/09/xmldsig#sha1', 'http://www.w3.org/2000/09/xmldsig#dsa-sha1']);

export class SamlRequestError extends Error {
  override readonly name = 'SamlRequestError';
}

export type ReceivedRequest =
  | { binding: 'redirect'; samlRequest: string; rawQuery: string }
  | { binding: 'post'; samlRequest: string };

export interface ValidatedRequest {
  requestId: string;
  serviceProvider: SamlServiceProviderRow;
  acsUrl: string;
  issueInstant: Date;
  forceAuthn: boolean;
  isPassive: boolean;
}

export interface RequestExpectations {
  em: EntityManager;
  orgId: string;
  ssoUrl: string;
  now: Date;
}

function base64Bytes(value: string): Buffer {
  const compact = value.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new SamlRequestError('SAMLRequest is not base64');
  return Buffer.from(compact, 'base64');
}

/** The message's XML: bounded, base64, and for HTTP-Redirect inflated within a bound (shared with logout-request.ts). */
export function decode(received: ReceivedRequest): string {
  if (received.samlRequest.length > MAX_SAML_REQUEST_CHARS) throw new SamlRequestError('SAMLRequest too large');
  const bytes = base64Bytes(received.samlRequest);
  if (received.binding === 'post') return bytes.toString('utf8');
  try {
    // Bindings 3.4.4.1: DEFLATE without header; the output bound stops a compression bomb.
    return inflateRawSync(bytes, { maxOutputLength: MAX_XML_CHARS }).toString('utf8');
  } catch {
    throw new SamlRequestError('SAMLRequest is not DEFLATE-encoded or too large');
  }
}

/** The query's parameters as received, still URL-encoded (Bindings 3.4.4.1 signs those octets). */
function rawParameters(rawQuery: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    const at = part.indexOf('=');
    const name = at < 0 ? part : part.slice(0, at);
    if (!out.has(name)) out.set(name, at < 0 ? '' : part.slice(at + 1));
  }
  return out;
}

function decodedComponent(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new SamlRequestError('query parameter is not URL-encoded');
  }
}

/** Bindings 3.4.4.1 (shared with logout-request.ts). */
export function verifyRedirectSignature(rawQuery: string, certificatePem: string): void {
  const params = rawParameters(rawQuery);
  if (!params.has('SAMLRequest')) throw new SamlRequestError('the signed query has no SAMLRequest');
  const sigAlg = params.get('SigAlg');
  const signature = params.get('Signature');
  if (!sigAlg || !signature) throw new SamlRequestError('the request is not signed, and this service provider must sign');
  const algorithm = REDIRECT_ALGORITHMS[decodedComponent(sigAlg)];
  if (!algorithm) throw new SamlRequestError('the request signature algorithm is not accepted (SHA-256 or stronger)');
  const signed = [`SAMLRequest=${params.get('SAMLRequest')}`];
  if (params.has('RelayState')) signed.push(`RelayState=${params.get('RelayState')}`);
  signed.push(`SigAlg=${sigAlg}`);
  const key = createPublicKey(certificatePem);
  const ok = verify(algorithm.hash, Buffer.from(signed.join('&'), 'utf8'), algorithm.ec ? { key, dsaEncoding: 'ieee-p1363' } : key, base64Bytes(decodedComponent(signature)));
  if (!ok) throw new SamlRequestError('the request signature does not verify with the registered certificate');
}

/**
 * Core 5.4.2: an enveloped signature whose one reference is the request element itself, by its ID (shared
 * with logout-request.ts).
 */
export async function verifyPostSignature(xml: string, root: Element, requestId: string, certificatePem: string, what = 'AuthnRequest'): Promise<void> {
  const signatures = childElements(root, XMLDSIG, 'Signature');
  if (signatures.length !== 1) throw new SamlRequestError(`${what} is not signed, and this service provider must sign`);
  const methods = [...descendants(root, XMLDSIG, 'SignatureMethod'), ...descendants(root, XMLDSIG, 'DigestMethod')];
  if (methods.some((method) => SHA1_ALGORITHMS.has(method.getAttribute('Algorithm') ?? ''))) throw new SamlRequestError(`${what} is signed with SHA-1`);
  const { SignedXml } = await import('xml-crypto');
  const verifier = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signatures[0]!);
  let valid = false;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  if (!valid) throw new SamlRequestError(`${what} signature does not verify with the registered certificate`);
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${requestId}`) throw new SamlRequestError(`${what} signature does not cover the request`);
}

function chosenAcs(root: Element, sp: SamlServiceProviderRow): string {
  const binding = root.getAttribute('ProtocolBinding');
  if (binding && binding !== HTTP_POST) throw new SamlRequestError('AuthnRequest asks for a binding other than HTTP-POST');
  const url = root.getAttribute('AssertionConsumerServiceURL');
  const index = root.getAttribute('AssertionConsumerServiceIndex');
  if (url) {
    const registered = sp.acsEndpoints.find((acs) => acs.url === url);
    if (!registered) throw new SamlRequestError('AssertionConsumerServiceURL is not registered for this service provider');
    return registered.url;
  }
  if (index) {
    const registered = sp.acsEndpoints.find((acs) => String(acs.index) === index);
    if (!registered) throw new SamlRequestError('AssertionConsumerServiceIndex is not registered for this service provider');
    return registered.url;
  }
  return (sp.acsEndpoints.find((acs) => acs.isDefault) ?? sp.acsEndpoints[0]!).url;
}

/** Core 1.3.3 IssueInstant: at most five minutes old, not in the future, two minutes of skew either way. */
export function checkFreshness(root: Element, now: Date, what: string): Date {
  const issueInstant = Date.parse(root.getAttribute('IssueInstant') ?? '');
  if (Number.isNaN(issueInstant)) throw new SamlRequestError(`${what} has no IssueInstant`);
  if (issueInstant > now.getTime() + CLOCK_SKEW_MS) throw new SamlRequestError(`${what} IssueInstant is in the future`);
  if (issueInstant < now.getTime() - REQUEST_MAX_AGE_MS - CLOCK_SKEW_MS) throw new SamlRequestError(`${what} is too old`);
  return new Date(issueInstant);
}

/** Version 2.0, an xs:ID that is unique in the message (no sibling copy for a signature to point at). */
export function checkedRequestId(doc: Document, root: Element, what: string): string {
  if (root.getAttribute('Version') !== '2.0') throw new SamlRequestError(`${what} Version is not 2.0`);
  const requestId = root.getAttribute('ID') ?? '';
  if (!requestId || requestId.length > MAX_ID || !/^[A-Za-z_][\w.-]*$/.test(requestId)) throw new SamlRequestError(`${what} has no usable ID`);
  if (descendants(doc, '*', '*').filter((element) => element.getAttribute('ID') === requestId).length !== 1) throw new SamlRequestError(`${what} ID is not unique in the message`);
  return requestId;
}

/** The one Issuer child (Core 3.2.1), at most 1024 characters. */
export function issuerOf(root: Element, what: string): string {
  const issuers = childElements(root, ASSERTION, 'Issuer');
  const issuer = issuers.length === 1 ? issuers[0]!.textContent?.trim() : undefined;
  if (!issuer || issuer.length > 1024) throw new SamlRequestError(`${what} has no Issuer`);
  return issuer;
}

export async function parsedMessage(xml: string, what: string): Promise<Document> {
  try {
    return await parseSafeXml(xml, MAX_XML_CHARS, what);
  } catch (err) {
    if (err instanceof UnsafeXmlError) throw new SamlRequestError(err.message);
    throw err;
  }
}

export async function validateAuthnRequest(received: ReceivedRequest, expected: RequestExpectations): Promise<ValidatedRequest> {
  const xml = decode(received);
  const doc = await parsedMessage(xml, 'AuthnRequest');
  const root = doc.documentElement;
  if (root.namespaceURI !== PROTOCOL || root.localName !== 'AuthnRequest') throw new SamlRequestError('not a samlp:AuthnRequest');
  const requestId = checkedRequestId(doc, root, 'AuthnRequest');
  const issueInstant = checkFreshness(root, expected.now, 'AuthnRequest');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== expected.ssoUrl) throw new SamlRequestError('AuthnRequest Destination is not this IdP');
  const issuer = issuerOf(root, 'AuthnRequest');
  const sp = await findActiveServiceProvider(expected.em, expected.orgId, issuer);
  if (!sp) throw new SamlRequestError('AuthnRequest Issuer is not an active service provider of this organization');
  if (sp.certificatePem) {
    if (received.binding === 'redirect') verifyRedirectSignature(received.rawQuery, sp.certificatePem);
    else await verifyPostSignature(xml, root, requestId, sp.certificatePem);
  }
  return {
    requestId,
    serviceProvider: sp,
    acsUrl: chosenAcs(root, sp),
    issueInstant,
    // xs:boolean (XML Schema 3.2.2): "true" or "1".
    forceAuthn: ['true', '1'].includes(root.getAttribute('ForceAuthn') ?? ''),
    isPassive: ['true', '1'].includes(root.getAttribute('IsPassive') ?? ''),
  };
}
