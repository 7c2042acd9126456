/**
 * Validation of a SAML response posted to our AssertionConsumerService (SAML 2.0 Profiles 4.1.4.3 and
 * 4.1.4.5, with the lessons of "On Breaking SAML", Somorovsky et al. 2012). @node-saml/node-saml, loaded on
 * the first response (idle memory is budgeted), checks the XML signature with the connection's
 * certificates and hands back only the signed assertion's content, never a sibling that merely looks like
 * it (XML signature wrapping); it refuses more than one assertion, checks the InResponseTo it is given, the
 * Conditions window and the Audience. Around it this file adds what the profile asks and the library leaves
 * to us:
 *
 * - the assertion itself must be signed (WantAssertionsSigned="true" in our metadata): a signed response
 *   around an unsigned assertion is refused too;
 * - the assertion's Issuer is the IdP's entity id (Core 2.3.3, Profiles 4.1.4.2);
 * - a bearer SubjectConfirmation whose data names our ACS as Recipient, the request we sent to this
 *   browser as InResponseTo, and a NotOnOrAfter that has not passed (Profiles 4.1.4.2);
 * - on the unsigned envelope: the response answers that same request, is addressed to our ACS when it
 *   names a Destination (Bindings 3.5.5.2), names the IdP when it names an Issuer, and says Success;
 * - at most two minutes of clock skew; no DOCTYPE (SAML messages have none; it is the door to entity
 *   expansion); a size bound on the message before it is decoded;
 * - no signature or digest by SHA-1 (RFC 6931 section 2.2.1 and 2.3.2 keep it only for old signatures;
 *   chosen-prefix collisions make it forgeable), which the validator would otherwise accept.
 *
 * Errors name the rule broken, never the XML: they go to the log, and the browser sees a fixed page.
 */
import type { CacheProvider, SAML as SamlValidator } from '@node-saml/node-saml';
import type { Clock } from '../../kernel/deps.ts';

export const CLOCK_SKEW_MS = 2 * 60 * 1000;
/** Base64 of a response: generous for a signed assertion with attributes and a certificate chain. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const MAX_ID = 256;
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SHA1_ALGORITHMS = new Set(['http://www.w3.org/2000/09/xmldsig#rsa-sha1', 'http://www.w3.org/2000/09/xmldsig#sha1']);

/** A response refused; the message is safe to log (no XML, no attribute values). */
export class SamlResponseError extends Error {
  override readonly name = 'SamlResponseError';
}

export interface ExpectedResponse {
  certificates: string[];
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  requestId: string;
  requestedAt: Date;
  clock: Clock;
}

export interface ValidatedAssertion {
  assertionId: string;
  /** The latest moment the assertion may be presented: the key of the replay record lasts until then. */
  usableUntil: Date;
  nameId: string;
  nameIdFormat?: string;
  attributes: Record<string, string[]>;
}

type Library = typeof import('@node-saml/node-saml');
type XmlHelpers = typeof import('@node-saml/node-saml/lib/xml.js');
type Xml2Js = Record<string, any>;

let loaded: Promise<[Library, XmlHelpers]> | undefined;
function load(): Promise<[Library, XmlHelpers]> {
  loaded ??= Promise.all([import('@node-saml/node-saml'), import('@node-saml/node-saml/lib/xml.js')]);
  return loaded;
}

/** node-saml's InResponseTo check, answered from the flow: only the one request this browser sent exists. */
function singleRequestCache(requestId: string, requestedAt: Date): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (key === requestId ? requestedAt.toISOString() : null),
    removeAsync: async () => null,
  };
}

function decode(samlResponse: string): string {
  if (samlResponse.length > MAX_SAML_RESPONSE_CHARS) throw new SamlResponseError('SAMLResponse too large');
  const compact = samlResponse.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new SamlResponseError('SAMLResponse is not base64');
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  if (/<!DOCTYPE/i.test(xml)) throw new SamlResponseError('SAMLResponse has a DOCTYPE');
  return xml;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { _?: unknown })._ === 'string') return (value as { _: string })._;
  return undefined;
}

function time(value: unknown, what: string): number {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new SamlResponseError(`${what} is not a date`);
  return ms;
}

/** Every signature in the message, wherever it sits, by SHA-2 only. */
function checkAlgorithms(root: Element, helpers: XmlHelpers): void {
  const methods = helpers.xpath.selectElements(root, `//*[namespace-uri()='${XMLDSIG}' and (local-name()='SignatureMethod' or local-name()='DigestMethod')]`);
  if (methods.some((method) => SHA1_ALGORITHMS.has(method.getAttribute('Algorithm') ?? ''))) throw new SamlResponseError('signed with SHA-1');
}

/** The envelope is not signed (only the assertion must be): its claims are checked, never trusted for more. */
async function checkEnvelope(xml: string, helpers: XmlHelpers, expected: ExpectedResponse): Promise<void> {
  const doc = await helpers.parseDomFromString(xml);
  const root = doc.documentElement;
  if (!root || root.localName !== 'Response' || root.namespaceURI !== PROTOCOL) throw new SamlResponseError('not a SAML Response');
  checkAlgorithms(root, helpers);
  if (root.getAttribute('InResponseTo') !== expected.requestId) throw new SamlResponseError('response InResponseTo is not our request');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== expected.acsUrl) throw new SamlResponseError('response Destination is not our ACS');
  const issuers = helpers.xpath.selectElements(root, "./*[local-name()='Issuer']");
  if (issuers.length > 1 || (issuers.length === 1 && issuers[0]!.textContent?.trim() !== expected.idpEntityId)) throw new SamlResponseError('response Issuer is not the IdP');
  const codes = helpers.xpath.selectElements(root, "./*[local-name()='Status']/*[local-name()='StatusCode']");
  if (codes.length !== 1 || codes[0]!.getAttribute('Value') !== SUCCESS) throw new SamlResponseError('response status is not Success');
}

/** Profiles 4.1.4.2: one bearer confirmation for our ACS, our request, and still valid; its expiry. */
function confirmedUntil(assertion: Xml2Js, expected: ExpectedResponse, now: number): number {
  const confirmations: Xml2Js[] = assertion.Subject?.[0]?.SubjectConfirmation ?? [];
  let until: number | undefined;
  for (const confirmation of confirmations) {
    if (confirmation.$?.Method !== BEARER) continue;
    const data = confirmation.SubjectConfirmationData?.[0]?.$;
    if (!data) continue;
    if (data.Recipient !== expected.acsUrl) throw new SamlResponseError('SubjectConfirmationData Recipient is not our ACS');
    if (data.InResponseTo !== expected.requestId) throw new SamlResponseError('SubjectConfirmationData InResponseTo is not our request');
    if (data.NotOnOrAfter === undefined) throw new SamlResponseError('SubjectConfirmationData has no NotOnOrAfter');
    const notOnOrAfter = time(data.NotOnOrAfter, 'SubjectConfirmationData NotOnOrAfter');
    if (now - CLOCK_SKEW_MS >= notOnOrAfter) throw new SamlResponseError('SubjectConfirmationData has expired');
    if (data.NotBefore !== undefined && now + CLOCK_SKEW_MS < time(data.NotBefore, 'SubjectConfirmationData NotBefore')) throw new SamlResponseError('SubjectConfirmationData is not yet valid');
    until = Math.max(until ?? 0, notOnOrAfter);
  }
  if (until === undefined) throw new SamlResponseError('no bearer SubjectConfirmation');
  return until;
}

/**
 * Core 2.5.1.2: the Conditions window on our clock (the validator checks it on the process's wall clock
 * too; here it is the server's clock, as every other time rule of the sign-in). Returns its end, if any.
 */
function conditionsWindow(assertion: Xml2Js, now: number): number | undefined {
  const conditions = assertion.Conditions?.[0]?.$;
  if (!conditions) return undefined;
  if (conditions.NotBefore !== undefined && now + CLOCK_SKEW_MS < time(conditions.NotBefore, 'Conditions NotBefore')) throw new SamlResponseError('Conditions not yet valid');
  if (conditions.NotOnOrAfter === undefined) return undefined;
  const end = time(conditions.NotOnOrAfter, 'Conditions NotOnOrAfter');
  if (now - CLOCK_SKEW_MS >= end) throw new SamlResponseError('Conditions have expired');
  return end;
}

function attributesOf(assertion: Xml2Js): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const statement of (assertion.AttributeStatement ?? []) as Xml2Js[]) {
    for (const attribute of (statement.Attribute ?? []) as Xml2Js[]) {
      const name = attribute.$?.Name;
      if (typeof name !== 'string') continue;
      const values = ((attribute.AttributeValue ?? []) as unknown[]).map(text).filter((v): v is string => v !== undefined);
      out[name] = [...(out[name] ?? []), ...values];
    }
  }
  return out;
}

export async function validateSamlResponse(samlResponse: string, expected: ExpectedResponse): Promise<ValidatedAssertion> {
  const xml = decode(samlResponse);
  const [library, helpers] = await load();
  const validator: SamlValidator = new library.SAML({
    idpCert: expected.certificates,
    issuer: expected.spEntityId,
    callbackUrl: expected.acsUrl,
    audience: expected.spEntityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: 0,
    validateInResponseTo: library.ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60 * 1000,
    cacheProvider: singleRequestCache(expected.requestId, expected.requestedAt),
  });
  let profile: Awaited<ReturnType<SamlValidator['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await validator.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') }));
  } catch (err) {
    throw new SamlResponseError(`rejected by the validator: ${(err as Error).message.slice(0, 200)}`);
  }
  if (!profile) throw new SamlResponseError('no assertion');
  await checkEnvelope(xml, helpers, expected);
  // From here on, only the signed assertion's content is read (profile.getAssertion is built from it).
  const assertion = profile.getAssertion?.().Assertion as Xml2Js | undefined;
  if (!assertion) throw new SamlResponseError('no signed assertion');
  const assertionId = assertion.$?.ID;
  if (typeof assertionId !== 'string' || assertionId.length === 0 || assertionId.length > MAX_ID) throw new SamlResponseError('assertion has no usable ID');
  if (text(assertion.Issuer?.[0])?.trim() !== expected.idpEntityId) throw new SamlResponseError('assertion Issuer is not the IdP');
  const now = expected.clock.now().getTime();
  const until = confirmedUntil(assertion, expected, now);
  const conditionsEnd = conditionsWindow(assertion, now);
  const usableUntil = Math.max(until, conditionsEnd ?? 0) + CLOCK_SKEW_MS;
  const nameIdElement = assertion.Subject?.[0]?.NameID?.[0];
  const nameId = text(nameIdElement)?.trim();
  if (!nameId) throw new SamlResponseError('assertion has no NameID');
  return { assertionId, usableUntil: new Date(usableUntil), nameId, nameIdFormat: nameIdElement?.$?.Format, attributes: attributesOf(assertion) };
}
