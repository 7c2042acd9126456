/**
 * The SAML Response the IdP posts to the service provider (SAML 2.0 Core 3.3.3 and 2.3.3, Profiles
 * 4.1.4.2): Issuer, Success, and one bearer assertion with the IdP as Issuer, the NameID, a
 * SubjectConfirmationData naming the ACS as Recipient with InResponseTo (SP-initiated) and NotOnOrAfter,
 * Conditions with NotBefore/NotOnOrAfter and the SP as the only Audience, an AuthnStatement with the
 * sign-in time and a SessionIndex, and the mapped attributes. Both the assertion and the response are
 * signed (enveloped XML signatures, exclusive canonicalisation, RSA-SHA256 and SHA-256 digests: RFC 6931
 * sections 2.3.2 and 2.1.3), each referencing its own element by ID, with the current key's certificate in
 * KeyInfo; SPs that want either one signed (WantAssertionsSigned, or a signed response) are served.
 * xml-crypto is loaded with the first response (idle memory is budgeted). Every value is escaped.
 */
import { randomBytes } from 'node:crypto';
import type { AssertionSubject } from './assertion-subject.ts';
import { escapeXml } from '../../kernel/xml-text.ts';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const AUTHN_UNSPECIFIED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified';
const ATTRNAME_BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
/** How long the SP may take to receive the assertion (Profiles 4.1.4.2 leaves it to the IdP): five minutes. */
export const ASSERTION_LIFETIME_MS = 5 * 60 * 1000;

export interface ResponseInput {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  /** The AuthnRequest's ID; absent for IdP-initiated sign-in (Profiles 4.1.5: unsolicited). */
  inResponseTo?: string;
  subject: AssertionSubject;
  authnInstant: Date;
  sessionIndex: string;
  now: Date;
  signingKey: { privateKeyPem: string; certificatePem: string };
}

/** Core 1.3.4: an xs:ID, unpredictable (160 bits), starting with a letter or underscore. */
export function newId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

function attributeXml(attribute: { name: string; values: string[] }): string {
  const values = attribute.values
    .map((value) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue>`)
    .join('');
  return `<saml:Attribute Name="${escapeXml(attribute.name)}" NameFormat="${ATTRNAME_BASIC}">${values}</saml:Attribute>`;
}

function unsignedResponse(input: ResponseInput, responseId: string, assertionId: string): string {
  const now = input.now.toISOString();
  // Core 2.5.1.2: the assertion is valid from a minute back, so an SP whose clock runs a little behind (many
  // accept no skew by default) does not see it as not yet valid. The bearer confirmation has no NotBefore
  // (Profiles 4.1.4.2 forbids one).
  const notBefore = new Date(input.now.getTime() - 60_000).toISOString();
  const notOnOrAfter = new Date(input.now.getTime() + ASSERTION_LIFETIME_MS).toISOString();
  const inResponseTo = input.inResponseTo ? ` InResponseTo="${escapeXml(input.inResponseTo)}"` : '';
  const issuer = `<saml:Issuer>${escapeXml(input.idpEntityId)}</saml:Issuer>`;
  const attributes = input.subject.attributes.length > 0 ? `<saml:AttributeStatement>${input.subject.attributes.map(attributeXml).join('')}</saml:AttributeStatement>` : '';
  return [
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${responseId}" Version="2.0" IssueInstant="${now}" Destination="${escapeXml(input.acsUrl)}"${inResponseTo}>`,
    issuer,
    `<samlp:Status><samlp:StatusCode Value="${SUCCESS}"/></samlp:Status>`,
    `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${assertionId}" Version="2.0" IssueInstant="${now}">`,
    issuer,
    '<saml:Subject>',
    `<saml:NameID Format="${escapeXml(input.subject.nameIdFormat)}">${escapeXml(input.subject.nameId)}</saml:NameID>`,
    `<saml:SubjectConfirmation Method="${BEARER}"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(input.acsUrl)}"/></saml:SubjectConfirmation>`,
    '</saml:Subject>',
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(input.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`,
    `<saml:AuthnStatement AuthnInstant="${input.authnInstant.toISOString()}" SessionIndex="${escapeXml(input.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>${AUTHN_UNSPECIFIED}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
    attributes,
    '</saml:Assertion>',
    '</samlp:Response>',
  ].join('');
}

export type SignedXmlClass = typeof import('xml-crypto').SignedXml;

/** Signs the element with this ID, the signature placed right after its Issuer (Core 5.4.1 and schema order). */
export function signElement(SignedXml: SignedXmlClass, xml: string, localName: 'Assertion' | 'Response' | 'LogoutResponse', id: string, key: ResponseInput['signingKey']): string {
  const signer = new SignedXml({ privateKey: key.privateKeyPem, publicCert: key.certificatePem, signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: EXC_C14N });
  const element = `//*[local-name(.)='${localName}' and @ID='${id}']`;
  signer.addReference({ xpath: element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/**
 * Core 3.2.2.2: the answer to an IsPassive request the IdP cannot satisfy without asking the user:
 * Responder with NoPassive, no assertion, signed like every response.
 */
export async function signedNoPassiveResponseXml(input: Pick<ResponseInput, 'idpEntityId' | 'acsUrl' | 'inResponseTo' | 'now' | 'signingKey'>): Promise<string> {
  const { SignedXml } = await import('xml-crypto');
  const responseId = newId();
  const inResponseTo = input.inResponseTo ? ` InResponseTo="${escapeXml(input.inResponseTo)}"` : '';
  const xml = [
    `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${responseId}" Version="2.0" IssueInstant="${input.now.toISOString()}" Destination="${escapeXml(input.acsUrl)}"${inResponseTo}>`,
    `<saml:Issuer>${escapeXml(input.idpEntityId)}</saml:Issuer>`,
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:NoPassive"/></samlp:StatusCode></samlp:Status>',
    '</samlp:Response>',
  ].join('');
  return signElement(SignedXml, xml, 'Response', responseId, input.signingKey);
}

/** The signed Response, as XML text. */
export async function signedResponseXml(input: ResponseInput): Promise<string> {
  const { SignedXml } = await import('xml-crypto');
  const responseId = newId();
  const assertionId = newId();
  const withSignedAssertion = signElement(SignedXml, unsignedResponse(input, responseId, assertionId), 'Assertion', assertionId, input.signingKey);
  return signElement(SignedXml, withSignedAssertion, 'Response', responseId, input.signingKey);
}
