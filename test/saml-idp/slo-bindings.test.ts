/**
 * SP-initiated single logout by both bindings (SAML 2.0 Profiles 4.4.3; Bindings 3.4 HTTP-Redirect with
 * DEFLATE and the detached signature over SAMLRequest/SAMLResponse, RelayState and SigAlg; 3.5 HTTP-POST).
 * An SP registered from metadata that offers only a Redirect SingleLogoutService, as mod_auth_mellon's does,
 * sends a signed LogoutRequest by Redirect (node-saml) or by POST (samlify): the session here ends and the
 * LogoutResponse comes back by Redirect, its query signature checked with the IdP certificate from the
 * metadata by openssl, node-saml and samlify. An SP registered with a POST SingleLogoutService gets the
 * signed LogoutResponse posted (xmlsec1 checks it). Bad, missing and foreign signatures, and a replay, end
 * nothing.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import * as samlify from 'samlify';
import { orgCallersOnServer } from '../support/org-callers.ts';
import { makeCertificate, type TestCertificate } from '../support/saml-idp.ts';
import { CANONICAL, actual, browserSession, idpMetadata, metadataCertificates, nodeSamlSp, signUp, type SpSetup } from './idp-browser.ts';
import { mellonMetadata } from './sp-metadata-fixtures.ts';

const ORG = 'idp-slo-bindings';
const SLO = `${CANONICAL}/saml/${ORG}/slo`;
const IDP_ENTITY = `${CANONICAL}/saml/${ORG}/metadata`;
const MELLON = 'https://mellon.example.com/mellon';
const MELLON_KEY = makeCertificate({ cn: 'mellon.example.com' });
const POST_SP = 'https://post-sp.example.com';
const POST_SP_KEY = makeCertificate({ cn: 'post-sp.example.com' });
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const pemOf = (bare: string) => `-----BEGIN CERTIFICATE-----\n${bare.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

/** samlify as an SP that posts signed LogoutRequests (Bindings 3.5) and reads signed LogoutResponses. */
function samlifyLogoutSp(entityId: string, sloUrl: string, key: TestCertificate, idpMetadataXml: string) {
  const sp = samlify.ServiceProvider({
    entityID: entityId,
    privateKey: key.privateKeyPem,
    signingCert: key.certificatePem,
    requestSignatureAlgorithm: RSA_SHA256,
    wantLogoutResponseSigned: true,
    nameIDFormat: [EMAIL_FORMAT],
    singleLogoutService: [{ Binding: REDIRECT, Location: sloUrl }],
    signatureConfig: { prefix: 'ds', location: { reference: "/*[local-name(.)='LogoutRequest']/*[local-name(.)='Issuer']", action: 'after' } },
  });
  const idp = samlify.IdentityProvider({ metadata: idpMetadataXml, wantLogoutRequestSigned: true });
  return { sp, idp };
}

/** The redirect's query parameters, and the octets its signature covers as they appear in the URL. */
function redirectQuery(location: string): { params: Record<string, string>; raw: string; signed: string } {
  const url = new URL(location);
  const raw = url.search.slice(1);
  const parts = new Map(raw.split('&').map((part) => [part.slice(0, part.indexOf('=')), part] as const));
  const signed = ['SAMLResponse', 'RelayState', 'SigAlg'].filter((name) => parts.has(name)).map((name) => parts.get(name)!).join('&');
  return { params: Object.fromEntries(url.searchParams), raw, signed };
}

describe('SAML IdP single logout by HTTP-Redirect and HTTP-POST', () => {
  const { server, over } = orgCallersOnServer();
  let email: string;
  let metadata: string;
  let idpCertificates: string[];
  let mellon: SpSetup;

  before(async () => {
    const org = await over('rest', 'create_organization', { name: ORG });
    email = `slo-bindings-${randomBytes(4).toString('hex')}@example.com`;
    await over('rest', 'add_org_member', { org_id: org.id, user_id: await signUp(server(), email) });
    // Registered from its metadata as an administrator would: the prefill fed to create as it is.
    const prefill = await over('rest', 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: mellonMetadata(MELLON, MELLON_KEY.certificatePem) });
    const created = await over('rest', 'create_saml_service_provider', {
      org_id: org.id, name: 'mod_auth_mellon', entity_id: prefill.entity_id, certificate: prefill.certificate,
      acs_endpoints: prefill.acs_endpoints.map((acs: any) => ({ url: acs.url, binding: acs.binding, is_default: acs.is_default, index: acs.index })),
      slo_url: prefill.slo_url, slo_binding: prefill.slo_binding,
    });
    assert.equal(created.slo_url, `${MELLON}/logout`);
    assert.equal(created.slo_binding, 'redirect');
    await over('rest', 'create_saml_service_provider', {
      org_id: org.id, name: 'POST SLO', entity_id: `${POST_SP}/metadata`, acs_endpoints: [{ url: `${POST_SP}/acs` }],
      certificate: POST_SP_KEY.certificatePem, slo_url: `${POST_SP}/slo`, slo_binding: 'post',
    });
    metadata = await idpMetadata(server(), ORG);
    assert.match(metadata, new RegExp(`<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SLO}"/>`), 'the IdP offers SLO by POST too');
    idpCertificates = metadataCertificates(metadata);
    mellon = { org: ORG, entityId: `${MELLON}/metadata`, acsUrl: `${MELLON}/postResponse`, idpCertificates, signing: MELLON_KEY };
  });

  // validate_session reads the session without refreshing it (POST /v1/session would rotate the cookie).
  const session = async (cookie: string) => (await fetch(`${server().baseUrl}/v1/validate_session`, { method: 'POST', headers: { cookie, origin: server().baseUrl, 'content-type': 'application/json' }, body: '{}' })).status;
  const get = (url: string, cookie: string) => fetch(actual(server(), url), { headers: { cookie }, redirect: 'manual' });
  const postForm = (form: Record<string, string>, cookie: string) => fetch(`${server().baseUrl}/saml/${ORG}/slo`, {
    method: 'POST',
    // Posted by the SP's page, from its own origin (cross-site by design).
    headers: { cookie, origin: MELLON.replace(/\/mellon$/, ''), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });

  /** The LogoutResponse of a Redirect answer, after its query signature is checked with openssl and the IdP's certificate. */
  function checkedRedirectResponse(location: string): { xml: string; query: ReturnType<typeof redirectQuery> } {
    assert.ok(location.startsWith(`${MELLON}/logout?`), location);
    const query = redirectQuery(location);
    assert.equal(query.params.SigAlg, RSA_SHA256);
    const dir = mkdtempSync(join(tmpdir(), 'saml-slo-redirect-'));
    writeFileSync(join(dir, 'cert.pem'), pemOf(idpCertificates[0]!));
    writeFileSync(join(dir, 'signed.txt'), query.signed);
    writeFileSync(join(dir, 'signature.bin'), Buffer.from(query.params.Signature!, 'base64'));
    const pubkey = execFileSync('openssl', ['x509', '-in', join(dir, 'cert.pem'), '-pubkey', '-noout']);
    writeFileSync(join(dir, 'pub.pem'), pubkey);
    const verify = (file: string) => execFileSync('openssl', ['dgst', '-sha256', '-verify', join(dir, 'pub.pem'), '-signature', join(dir, 'signature.bin'), file], { stdio: 'pipe' }).toString();
    assert.match(verify(join(dir, 'signed.txt')), /Verified OK/);
    writeFileSync(join(dir, 'tampered.txt'), query.signed.replace('SigAlg=', 'SigAlg=x'));
    assert.throws(() => verify(join(dir, 'tampered.txt')), 'openssl refuses other octets: the check is real');
    const xml = inflateRawSync(Buffer.from(query.params.SAMLResponse!, 'base64')).toString('utf8');
    assert.doesNotMatch(xml, /Signature/, 'Bindings 3.4.4.1: the XML carries no signature of its own');
    return { xml, query };
  }

  test('mod_auth_mellon-like SP: a LogoutRequest by Redirect ends the session; the signed LogoutResponse comes back by Redirect', async () => {
    const cookie = await browserSession(server(), email);
    const sp = nodeSamlSp(mellon, { sloUrl: `${MELLON}/logout` });
    const login = await fetch(actual(server(), await sp.getAuthorizeUrlAsync('', undefined, {})), { headers: { cookie } });
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(await login.text())![1]!;
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse });
    assert.equal(await session(cookie), 200);

    const logoutUrl = await sp.getLogoutUrlAsync(profile!, 'mellon-relay', {});
    const requestId = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(new URL(logoutUrl).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'))![1]!;
    const res = await get(logoutUrl, cookie);
    assert.equal(res.status, 302, await res.text());
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('cookie_session=')), 'the session cookie is cleared');
    assert.equal(await session(cookie), 401, 'the session ended on the server');

    const { xml, query } = checkedRedirectResponse(res.headers.get('location')!);
    assert.equal(query.params.RelayState, 'mellon-relay');
    assert.match(xml, /^<samlp:LogoutResponse /);
    assert.match(xml, /status:Success/);
    assert.match(xml, new RegExp(`InResponseTo="${requestId}"`));
    assert.match(xml, new RegExp(`Destination="${MELLON}/logout"`));
    assert.match(xml, new RegExp(`<saml:Issuer>${IDP_ENTITY}</saml:Issuer>`));

    // node-saml checks the query signature with the IdP certificate, and the issuer.
    const outcome = await nodeSamlSp(mellon, { sloUrl: `${MELLON}/logout`, inResponseTo: false }).validateRedirectAsync(query.params, query.raw);
    assert.equal(outcome.loggedOut, true);
    const forged = query.raw.replace(/Signature=[^&]+/, `Signature=${encodeURIComponent(Buffer.alloc(256, 1).toString('base64'))}`);
    await assert.rejects(nodeSamlSp(mellon, { sloUrl: `${MELLON}/logout`, inResponseTo: false }).validateRedirectAsync(Object.fromEntries(new URLSearchParams(forged)), forged));
    // samlify, reading our IdP from its metadata, does too.
    const { sp: samlifySp, idp } = samlifyLogoutSp(mellon.entityId, `${MELLON}/logout`, MELLON_KEY, metadata);
    const parsed = await samlifySp.parseLogoutResponse(idp, 'redirect', { query: query.params, octetString: query.signed });
    assert.equal(parsed.extract.response!.inResponseTo, requestId);

    assert.equal((await get(logoutUrl, cookie)).status, 400, 'the same LogoutRequest is answered once');
  });

  test('a LogoutRequest posted by HTTP-POST is accepted; the answer goes by the binding the SP registered', async () => {
    const cookie = await browserSession(server(), email);
    const { sp, idp } = samlifyLogoutSp(mellon.entityId, `${MELLON}/logout`, MELLON_KEY, metadata);
    const request = sp.createLogoutRequest(idp, 'post', { logoutNameID: email }, 'posted-relay') as { id: string; context: string; entityEndpoint: string };
    assert.equal(request.entityEndpoint, SLO);
    assert.match(Buffer.from(request.context, 'base64').toString('utf8'), /<ds:Signature/);
    const res = await postForm({ SAMLRequest: request.context, RelayState: 'posted-relay' }, cookie);
    assert.equal(res.status, 302, await res.text());
    assert.equal(await session(cookie), 401, 'the session ended');
    const { xml, query } = checkedRedirectResponse(res.headers.get('location')!);
    assert.equal(query.params.RelayState, 'posted-relay');
    assert.match(xml, new RegExp(`InResponseTo="${request.id}"`));
    assert.match(xml, /status:Success/);
    await sp.parseLogoutResponse(idp, 'redirect', { query: query.params, octetString: query.signed });
  });

  test('an SP registered with HTTP-POST gets the signed LogoutResponse posted; xmlsec1 verifies it', async () => {
    const cookie = await browserSession(server(), email);
    const setup: SpSetup = { org: ORG, entityId: `${POST_SP}/metadata`, acsUrl: `${POST_SP}/acs`, idpCertificates, signing: POST_SP_KEY };
    const sp = nodeSamlSp(setup, { sloUrl: `${POST_SP}/slo` });
    const logoutUrl = await sp.getLogoutUrlAsync({ issuer: setup.entityId, nameID: email, nameIDFormat: EMAIL_FORMAT } as any, '', {});
    const res = await get(logoutUrl, cookie);
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.match(body, new RegExp(`action="${POST_SP}/slo"`));
    assert.equal(await session(cookie), 401);
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(body)![1]!;
    assert.doesNotMatch(body, /name="RelayState"/, 'no RelayState was sent, none is answered');
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const dir = mkdtempSync(join(tmpdir(), 'saml-slo-post-'));
    writeFileSync(join(dir, 'cert.pem'), pemOf(idpCertificates[0]!));
    writeFileSync(join(dir, 'response.xml'), xml);
    writeFileSync(join(dir, 'tampered.xml'), xml.replace('status:Success', 'status:Requester'));
    const verify = (file: string) => execFileSync('xmlsec1', ['--verify', '--pubkey-cert-pem', join(dir, 'cert.pem'), '--id-attr:ID', 'urn:oasis:names:tc:SAML:2.0:protocol:LogoutResponse', join(dir, file)], { stdio: 'pipe' });
    verify('response.xml');
    assert.throws(() => verify('tampered.xml'));
    const outcome = await nodeSamlSp(setup, { sloUrl: `${POST_SP}/slo`, inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: samlResponse });
    assert.equal(outcome.loggedOut, true);
  });

  test('bad, missing and foreign signatures end nothing, by either binding', async () => {
    const cookie = await browserSession(server(), email);
    const nodeSp = nodeSamlSp(mellon, { sloUrl: `${MELLON}/logout` });
    const logoutUrl = await nodeSp.getLogoutUrlAsync({ issuer: mellon.entityId, nameID: email, nameIDFormat: EMAIL_FORMAT } as any, 'r', {});
    const badRedirect = logoutUrl.replace(/Signature=[^&]+/, `Signature=${encodeURIComponent(Buffer.alloc(256, 7).toString('base64'))}`);
    assert.equal((await get(badRedirect, cookie)).status, 400, 'Redirect: a signature that does not verify');
    const foreign = await nodeSamlSp({ ...mellon, signing: makeCertificate({ cn: 'mallory' }) }, { sloUrl: `${MELLON}/logout` })
      .getLogoutUrlAsync({ issuer: mellon.entityId, nameID: email, nameIDFormat: EMAIL_FORMAT } as any, '', {});
    assert.equal((await get(foreign, cookie)).status, 400, 'Redirect: signed with a key other than the registered one');
    assert.equal((await get(logoutUrl.replace(/&RelayState=r/, '&RelayState=other'), cookie)).status, 400, 'Redirect: RelayState is covered by the signature');

    const { sp, idp } = samlifyLogoutSp(mellon.entityId, `${MELLON}/logout`, MELLON_KEY, metadata);
    const signed = Buffer.from((sp.createLogoutRequest(idp, 'post', { logoutNameID: email }) as { context: string }).context, 'base64').toString('utf8');
    const tampered = signed.replace(email, 'someone-else@example.com');
    assert.notEqual(tampered, signed);
    assert.equal((await postForm({ SAMLRequest: Buffer.from(tampered).toString('base64') }, cookie)).status, 400, 'POST: the signed XML changed');
    const unsigned = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    assert.doesNotMatch(unsigned, /Signature/);
    assert.equal((await postForm({ SAMLRequest: Buffer.from(unsigned).toString('base64') }, cookie)).status, 400, 'POST: unsigned');
    const { sp: mallory, idp: idpForMallory } = samlifyLogoutSp(mellon.entityId, `${MELLON}/logout`, makeCertificate({ cn: 'mallory' }), metadata);
    const mallorys = (mallory.createLogoutRequest(idpForMallory, 'post', { logoutNameID: email }) as { context: string }).context;
    assert.equal((await postForm({ SAMLRequest: mallorys }, cookie)).status, 400, 'POST: signed with a key other than the registered one');
    assert.equal((await postForm({}, cookie)).status, 400, 'POST: no request');
    assert.equal(await session(cookie), 200, 'none of them ended the session');

    const good = (sp.createLogoutRequest(idp, 'post', { logoutNameID: email }) as { context: string }).context;
    assert.equal((await postForm({ SAMLRequest: good }, cookie)).status, 302);
    assert.equal((await postForm({ SAMLRequest: good }, await browserSession(server(), email))).status, 400, 'POST: the same LogoutRequest is answered once');
  });
});
