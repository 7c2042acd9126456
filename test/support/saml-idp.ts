/**
 * A SAML 2.0 identity provider for tests of organization SAML sign-in: samlify's IdentityProvider reads our
 * AuthnRequest from the HTTP-Redirect URL the server sends the browser to (checking its Issuer against our
 * metadata) and signs a response the way a real IdP does (the assertion, and the response when asked),
 * from a template whose every value a test may override (audience, recipient, times, InResponseTo...).
 * Certificates are made here with a small DER writer, so tests choose their validity dates and key types.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';

// Our AuthnRequests are read by the IdP under test only to answer them; samlify wants a schema validator.
samlify.setSchemaValidator({ validate: async () => 'skipped in tests' });

// --- X.509 certificates (RFC 5280 section 4.1), DER by hand ---------------------------------------------
function der(tag: number, body: Buffer): Buffer {
  const n = body.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const seq = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const oid = (dotted: string) => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const value of rest) {
    const chunk = [value & 0x7f];
    for (let v = value >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`));
const commonName = (cn: string) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(cn)))));
const SHA256_RSA = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

export interface TestCertificate {
  privateKeyPem: string;
  certificatePem: string;
}

/** A certificate for `subjectKey` (RSA 2048 by default), signed by a throwaway RSA key; dates as asked. */
export function makeCertificate(options: { cn?: string; notBefore?: Date; notAfter?: Date; subjectKey?: { privateKey: KeyObject; publicKey: KeyObject } } = {}): TestCertificate {
  const { privateKey, publicKey } = options.subjectKey ?? generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issuerKey = privateKey.asymmetricKeyType === 'rsa' ? privateKey : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.concat([Buffer.from([0x01]), randomBytes(8)])),
    SHA256_RSA,
    commonName(options.cn ?? 'test-idp'),
    seq(utcTime(options.notBefore ?? new Date(now - 3600_000)), utcTime(options.notAfter ?? new Date(now + 86_400_000 * 30))),
    commonName(options.cn ?? 'test-idp'),
    publicKey.export({ type: 'spki', format: 'der' }) as Buffer,
  );
  const signature = sign('sha256', tbs, issuerKey);
  const cert = seq(tbs, SHA256_RSA, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = cert.toString('base64').match(/.{1,64}/g)!.join('\n');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    certificatePem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
  };
}

// --- the IdP ---------------------------------------------------------------------------------------------
const TEMPLATE = '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}"><saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="{StatusCode}"/></samlp:Status>'
  + '<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}"><saml:Issuer>{AssertionIssuer}</saml:Issuer>'
  + '<saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="{SubjectRecipient}" InResponseTo="{SubjectInResponseTo}"/></saml:SubjectConfirmation></saml:Subject>'
  + '<saml:Conditions NotBefore="{ConditionsNotBefore}" NotOnOrAfter="{ConditionsNotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>'
  + '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{AssertionID}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>'
  + '<saml:AttributeStatement><saml:Attribute Name="{EmailAttribute}"><saml:AttributeValue xsi:type="xs:string">{Email}</saml:AttributeValue></saml:Attribute>'
  + '<saml:Attribute Name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"><saml:AttributeValue xsi:type="xs:string">{GivenName}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>'
  + '</saml:Assertion></samlp:Response>';

export const EMAIL_CLAIM = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';
export const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

export interface SamlUser {
  nameId: string;
  nameIdFormat?: string;
  email?: string;
  givenName?: string;
}

/** Template values; undefined drops the attribute or element it fills. */
export type ResponseValues = Record<string, string | undefined>;

export interface ReadRequest {
  id: string;
  relayState: string;
  xml: string;
}

export interface AnswerOptions {
  /** Overrides of template values (after the defaults computed from the request). */
  values?: ResponseValues;
  /** The IdP signs the assertion (as our metadata asks); false leaves it unsigned. */
  signAssertion?: boolean;
  /** The IdP also signs the whole response. */
  signResponse?: boolean;
}

export class SamlTestIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly certificate: TestCertificate;
  readonly #signatureAlgorithm: string | undefined;

  /** `signatureAlgorithm`: an XML Signature method URI (samlify's default is RSA-SHA256). */
  constructor(options: { entityId?: string; ssoUrl?: string; certificate?: TestCertificate; signatureAlgorithm?: string } = {}) {
    this.#signatureAlgorithm = options.signatureAlgorithm;
    this.entityId = options.entityId ?? 'https://idp.acme-corp.com/saml';
    this.ssoUrl = options.ssoUrl ?? 'https://idp.acme-corp.com/sso';
    this.certificate = options.certificate ?? makeCertificate({ cn: 'idp.acme-corp.com' });
  }

  #idp() {
    return samlify.IdentityProvider({
      entityID: this.entityId,
      privateKey: this.certificate.privateKeyPem,
      signingCert: this.certificate.certificatePem,
      wantAuthnRequestsSigned: false,
      ...(this.#signatureAlgorithm ? { requestSignatureAlgorithm: this.#signatureAlgorithm } : {}),
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${this.ssoUrl}/logout` }],
      loginResponseTemplate: { context: TEMPLATE, attributes: [] },
    });
  }

  /** Reads the AuthnRequest of the URL the server redirected to, as the IdP would (samlify checks its Issuer). */
  async readRequest(spMetadata: string, location: string): Promise<ReadRequest> {
    const url = new URL(location);
    const query = Object.fromEntries(url.searchParams);
    const parsed = await this.#idp().parseLoginRequest(samlify.ServiceProvider({ metadata: spMetadata }), 'redirect', { query });
    const xml = inflateRawSync(Buffer.from(query.SAMLRequest!, 'base64')).toString('utf8');
    const id = parsed.extract.request?.id;
    if (typeof id !== 'string') throw new Error('the AuthnRequest has no ID');
    return { id, relayState: query.RelayState!, xml };
  }

  /** A base64 SAMLResponse answering `requestId` for `user`, signed as the options say. */
  async respond(spMetadata: string, requestId: string | undefined, user: SamlUser, options: AnswerOptions = {}): Promise<string> {
    const signAssertion = options.signAssertion ?? true;
    const metadata = signAssertion ? spMetadata : spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"');
    const sp = samlify.ServiceProvider({ metadata, wantMessageSigned: options.signResponse ?? false });
    const spEntity = /entityID="([^"]+)"/.exec(spMetadata)![1]!;
    const acs = /Location="([^"]+)"/.exec(spMetadata)![1]!;
    const now = Date.now();
    const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const values: ResponseValues = {
      ID: `_${randomBytes(16).toString('hex')}`,
      AssertionID: `_${randomBytes(16).toString('hex')}`,
      IssueInstant: iso(0),
      Destination: acs,
      InResponseTo: requestId,
      SubjectInResponseTo: requestId,
      Issuer: this.entityId,
      AssertionIssuer: this.entityId,
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      NameIDFormat: user.nameIdFormat ?? PERSISTENT,
      NameID: user.nameId,
      SubjectConfirmationDataNotOnOrAfter: iso(5 * 60_000),
      SubjectRecipient: acs,
      ConditionsNotBefore: iso(-30_000),
      ConditionsNotOnOrAfter: iso(5 * 60_000),
      Audience: spEntity,
      EmailAttribute: EMAIL_CLAIM,
      Email: user.email,
      GivenName: user.givenName,
      ...options.values,
    };
    const answer = await this.#idp().createLoginResponse(sp, { extract: { request: { id: requestId ?? '' } } }, 'post', {}, (template: string) => ({
      id: values.ID!,
      // Undefined drops the attribute or element (samlify's replaceTagsByValue); its types omit that case.
      context: samlify.SamlLib.replaceTagsByValue(template, values as Record<string, string>),
    }));
    return answer.context;
  }
}

export function decodeResponse(samlResponse: string): string {
  return Buffer.from(samlResponse, 'base64').toString('utf8');
}

export function encodeResponse(xml: string): string {
  return Buffer.from(xml, 'utf8').toString('base64');
}

