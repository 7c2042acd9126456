/**
 * Test helpers for the SAML IdP: a signed-in browser (the session cookies of a real login), requests to
 * the server's canonical --url mapped onto its real port, the auto-posting form read back into its fields,
 * the IdP certificates read from the metadata, and the two SP libraries from npm set up against our IdP:
 * @node-saml/node-saml and samlify.
 */
import assert from 'node:assert/strict';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import * as samlify from 'samlify';
import type { TestServer } from '../support/app.ts';
import { loggedIn, signedUpUser } from '../support/signed-in-user.ts';

// samlify wants a schema validator for what it parses; the tests check our XML with two SP libraries and
// xmlsec1, so samlify's schema check is skipped (the same setting as test/support/saml-idp.ts).
samlify.setSchemaValidator({ validate: async () => 'skipped in tests' });

export const CANONICAL = 'http://127.0.0.1:8080';
export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const PASSWORD = 'Str0ng!saml-idp-pass';

export function actual(server: TestServer, url: string): string {
  return url.startsWith(CANONICAL) ? server.baseUrl + url.slice(CANONICAL.length) : url;
}

/** Signs a user in over REST and keeps the cookies the answer sets. */
export async function browserSession(server: TestServer, email: string): Promise<string> {
  return (await loggedIn(server, { email, password: PASSWORD })).cookies;
}

/** A new account; its address marked verified by the admin unless asked not to (assertions carry only verified ones). */
export async function signUp(server: TestServer, email: string, options: { verified?: boolean } = {}): Promise<string> {
  const profile = { given_name: 'Ada', family_name: 'Lovelace' };
  return (await signedUpUser(server, { email, password: PASSWORD, profile, verified: options.verified !== false })).userId;
}

export interface FormPost {
  status: number;
  action?: string;
  fields: Record<string, string>;
  body: string;
  location?: string;
  csp?: string;
}

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** One request to the IdP; an auto-posting form is read back into its action and fields. */
export async function visit(server: TestServer, url: string, init: { cookie?: string; form?: Record<string, string> } = {}): Promise<FormPost> {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(actual(server, url), {
    method: init.form ? 'POST' : 'GET',
    headers: { ...headers, ...(init.form ? { origin: 'https://sp.example.com' } : {}) },
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    redirect: 'manual',
  });
  const body = await res.text();
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(match[1]!)] = unescapeHtml(match[2]!);
  const action = body.match(/<form method="post" action="([^"]*)">/)?.[1];
  return { status: res.status, body, fields, ...(action ? { action: unescapeHtml(action) } : {}), ...(res.headers.get('location') ? { location: res.headers.get('location')! } : {}), ...(res.headers.get('content-security-policy') ? { csp: res.headers.get('content-security-policy')! } : {}) };
}

export async function idpMetadata(server: TestServer, org: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/saml/${org}/metadata`);
  assert.equal(res.status, 200);
  return res.text();
}

export function metadataCertificates(xml: string): string[] {
  return [...xml.matchAll(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((match) => match[1]!);
}

export interface SpSetup {
  org: string;
  entityId: string;
  acsUrl: string;
  idpCertificates: string[];
  signing?: { privateKeyPem: string; certificatePem: string };
}

/** @node-saml/node-saml as the SP: wants both the response and the assertion signed, checks InResponseTo. */
export function nodeSamlSp(setup: SpSetup, options: { inResponseTo?: boolean; forceAuthn?: boolean; passive?: boolean; sloUrl?: string } = {}): SAML {
  return new SAML({
    entryPoint: `${CANONICAL}/saml/${setup.org}/sso`,
    issuer: setup.entityId,
    callbackUrl: setup.acsUrl,
    audience: setup.entityId,
    idpCert: setup.idpCertificates,
    idpIssuer: `${CANONICAL}/saml/${setup.org}/metadata`,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: options.inResponseTo === false ? ValidateInResponseTo.never : ValidateInResponseTo.always,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    forceAuthn: options.forceAuthn === true,
    logoutUrl: `${CANONICAL}/saml/${setup.org}/slo`,
    ...(options.sloUrl ? { logoutCallbackUrl: options.sloUrl } : {}),
    passive: options.passive === true,
    ...(setup.signing ? { privateKey: setup.signing.privateKeyPem, signatureAlgorithm: 'sha256' as const } : {}),
  });
}

/** samlify as the SP, with our IdP read from its metadata. */
export function samlifySp(setup: SpSetup, idpMetadataXml: string) {
  const sp = samlify.ServiceProvider({
    entityID: setup.entityId,
    assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: setup.acsUrl }],
    wantAssertionsSigned: true,
    wantMessageSigned: true,
    ...(setup.signing ? { authnRequestsSigned: true, privateKey: setup.signing.privateKeyPem, signingCert: setup.signing.certificatePem, requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      // The enveloped signature of a posted request goes after its Issuer (Core 3.2.1 schema order).
      signatureConfig: { prefix: 'ds', location: { reference: "/*[local-name(.)='AuthnRequest']/*[local-name(.)='Issuer']", action: 'after' } } } : {}),
  });
  const idp = samlify.IdentityProvider({ metadata: idpMetadataXml });
  return { sp, idp };
}
