/**
 * SAML Web Browser SSO through this server as the IdP (SAML 2.0 Profiles 4.1), proved with two independent
 * SP implementations from npm, @node-saml/node-saml and samlify, and with xmlsec1: SP-initiated by the
 * HTTP-Redirect and HTTP-POST bindings and IdP-initiated; the metadata; a browser without a session sent
 * through the login UI and resumed; and the refusals (malformed, unsigned when the SP must sign, replayed,
 * unknown issuer, ACS not registered, stale, non-member).
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { randomBytes, sign } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orgCallersOnServer } from '../support/org-callers.ts';
import { makeCertificate } from '../support/saml-idp.ts';
import { CANONICAL, browserSession, idpMetadata, metadataCertificates, nodeSamlSp, samlifySp, signUp, visit, type SpSetup } from './idp-browser.ts';

const ORG = 'idp-sso';
const SSO = `${CANONICAL}/saml/${ORG}/sso`;
const SP_SIGNING = makeCertificate({ cn: 'signing-sp.example.com' });

function redirectRequest(xml: string, relayState?: string): string {
  const url = new URL(SSO);
  url.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(xml)).toString('base64'));
  if (relayState) url.searchParams.set('RelayState', relayState);
  return url.toString();
}

function authnRequestXml(options: { id?: string; issuer?: string; acs?: string; issueInstant?: Date; destination?: string; attributes?: string } = {}): string {
  const acs = (options.acs ? ` AssertionConsumerServiceURL="${options.acs}"` : '') + (options.attributes ? ` ${options.attributes}` : '');
  return `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.id ?? `_${randomBytes(12).toString('hex')}`}" Version="2.0" IssueInstant="${(options.issueInstant ?? new Date()).toISOString()}" Destination="${options.destination ?? SSO}"${acs}><saml:Issuer>${options.issuer ?? 'https://wiki.example.com/metadata'}</saml:Issuer></samlp:AuthnRequest>`;
}

describe('SAML IdP sign-in', () => {
  const callers = orgCallersOnServer();
  const { server, over } = callers;
  let orgId: string;
  let member: { userId: string; email: string; cookie: string };
  let outsider: { cookie: string };
  let wiki: SpSetup;

  before(async () => {
    orgId = (await over('rest', 'create_organization', { name: ORG, display_name: 'Idp Corp' })).id;
    const email = `ada-${randomBytes(4).toString('hex')}@example.com`;
    const userId = await signUp(server(), email);
    await over('rest', 'add_org_member', { org_id: orgId, user_id: userId, roles: ['editor'] });
    member = { userId, email, cookie: await browserSession(server(), email) };
    const outsiderEmail = `bob-${randomBytes(4).toString('hex')}@example.com`;
    await signUp(server(), outsiderEmail);
    outsider = { cookie: await browserSession(server(), outsiderEmail) };
    await over('rest', 'create_saml_service_provider', {
      org_id: orgId, name: 'Wiki', entity_id: 'https://wiki.example.com/metadata',
      acs_endpoints: [{ url: 'https://wiki.example.com/saml/acs' }, { url: 'https://wiki.example.com/saml/acs2' }],
      attribute_mapping: [{ field: 'email', attribute: 'mail' }, { field: 'given_name', attribute: 'givenName' }, { field: 'org_roles', attribute: 'roles' }],
    });
    await over('rest', 'create_saml_service_provider', {
      org_id: orgId, name: 'Signing', entity_id: 'https://signing.example.com/metadata', acs_endpoints: [{ url: 'https://signing.example.com/acs' }],
      certificate: SP_SIGNING.certificatePem, name_id_format: 'persistent',
    });
    await over('rest', 'create_saml_service_provider', {
      org_id: orgId, name: 'Off', entity_id: 'https://off.example.com/metadata', acs_endpoints: [{ url: 'https://off.example.com/acs' }], active: false,
    });
    wiki = { org: ORG, entityId: 'https://wiki.example.com/metadata', acsUrl: 'https://wiki.example.com/saml/acs', idpCertificates: metadataCertificates(await idpMetadata(server(), ORG)) };
  });

  test('the metadata: entity id, both SSO bindings, the signing key', async () => {
    const xml = await idpMetadata(server(), ORG);
    assert.match(xml, new RegExp(`entityID="${CANONICAL}/saml/${ORG}/metadata"`));
    assert.match(xml, new RegExp(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SSO}"/>`));
    assert.match(xml, new RegExp(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SSO}"/>`));
    assert.equal(metadataCertificates(xml).length, 1);
    assert.match(xml, /<md:KeyDescriptor use="signing">/);
    assert.equal((await fetch(`${server().baseUrl}/saml/no-such-org/metadata`)).status, 404);
  });

  test('node-saml, SP-initiated by HTTP-Redirect: the signed response is accepted, with NameID, attributes and session index', async () => {
    const sp = nodeSamlSp(wiki);
    const url = await sp.getAuthorizeUrlAsync('relay-1', undefined, {});
    const answer = await visit(server(), url, { cookie: member.cookie });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.action, 'https://wiki.example.com/saml/acs');
    assert.equal(answer.fields.RelayState, 'relay-1');
    assert.match(answer.csp!, /form-action https:\/\/wiki\.example\.com/);
    assert.doesNotMatch(answer.csp!, /unsafe-inline/);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.ok(profile);
    assert.equal(profile.nameID, member.email);
    assert.equal(profile.nameIDFormat, 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    assert.equal(profile.issuer, `${CANONICAL}/saml/${ORG}/metadata`);
    assert.equal(profile.mail, member.email);
    assert.equal(profile.givenName, 'Ada');
    assert.equal(profile.roles, 'editor');
    assert.match(String(profile.sessionIndex), /^_[0-9a-f]{40}$/);
  });

  const signing = (): SpSetup => ({ org: ORG, entityId: 'https://signing.example.com/metadata', acsUrl: 'https://signing.example.com/acs', idpCertificates: wiki.idpCertificates, signing: SP_SIGNING });

  test('samlify, SP-initiated by HTTP-Redirect: the signed response and assertion are accepted', async () => {
    const { sp, idp } = samlifySp(wiki, await idpMetadata(server(), ORG));
    const { context, id } = sp.createLoginRequest(idp, 'redirect') as { context: string; id: string };
    const answer = await visit(server(), context, { cookie: member.cookie });
    assert.equal(answer.status, 200, answer.body);
    const { extract }: { extract: any } = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: answer.fields.SAMLResponse } } as any);
    assert.equal(extract.nameID, member.email);
    assert.equal(extract.response.inResponseTo, id);
    assert.equal(extract.audience, wiki.entityId);
    assert.equal(extract.attributes.mail, member.email);
  });

  test('an SP registered with a certificate: signed HTTP-POST (samlify) and signed HTTP-Redirect (node-saml) requests pass, unsigned and wrongly signed ones do not', async () => {
    const setup = signing();
    // samlify signs only for an IdP whose metadata says WantAuthnRequestsSigned="true"; ours says false, as
    // the requirement is per SP (a registered certificate), so this SP's copy of the metadata says true.
    const wanting = (await idpMetadata(server(), ORG)).replace('WantAuthnRequestsSigned="false"', 'WantAuthnRequestsSigned="true"');
    const { sp, idp } = samlifySp(setup, wanting);
    const posted = sp.createLoginRequest(idp, 'post') as { context: string; relayState: string; id: string };
    const answer = await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: posted.context, RelayState: 'post-relay' } });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.action, setup.acsUrl);
    assert.equal(answer.fields.RelayState, 'post-relay');
    const { extract }: { extract: any } = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: answer.fields.SAMLResponse } } as any);
    assert.equal(extract.response.inResponseTo, posted.id);
    assert.match(extract.nameID, /^[0-9a-f]{64}$/, 'persistent: an opaque pairwise identifier');
    assert.notEqual(extract.nameID, member.userId);

    // The posted request changed after signing, or posted unsigned, is refused.
    const again = sp.createLoginRequest(idp, 'post') as { context: string };
    const changed = Buffer.from(again.context, 'base64').toString('utf8').replace(' Version="2.0"', ' Version="2.0" ForceAuthn="false"');
    assert.notEqual(changed, Buffer.from(again.context, 'base64').toString('utf8'));
    assert.equal((await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: Buffer.from(changed).toString('base64') } })).status, 400, 'changed after signing');
    const unsignedPost = Buffer.from(authnRequestXml({ issuer: setup.entityId })).toString('base64');
    assert.equal((await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: unsignedPost } })).status, 400, 'posted unsigned');

    const nodeSaml = nodeSamlSp(setup);
    const url = await nodeSaml.getAuthorizeUrlAsync('', undefined, {});
    assert.match(url, /Signature=/);
    const viaRedirect = await visit(server(), url, { cookie: member.cookie });
    assert.equal(viaRedirect.status, 200, viaRedirect.body);
    const { profile } = await nodeSaml.validatePostResponseAsync({ SAMLResponse: viaRedirect.fields.SAMLResponse! });
    assert.equal(profile!.nameID, extract.nameID, 'the same persistent NameID each time');

    const unsigned = await visit(server(), redirectRequest(authnRequestXml({ issuer: setup.entityId })), { cookie: member.cookie });
    assert.equal(unsigned.status, 400, 'unsigned when the SP must sign');
    assert.equal(unsigned.fields.SAMLResponse, undefined);
    // Signed by a key that is not the registered one.
    const stranger = makeCertificate({ cn: 'stranger' });
    const forged = new URL(redirectRequest(authnRequestXml({ issuer: setup.entityId })));
    const sigAlg = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
    const signedPart = `SAMLRequest=${encodeURIComponent(forged.searchParams.get('SAMLRequest')!)}&SigAlg=${encodeURIComponent(sigAlg)}`;
    const signature = sign('sha256', Buffer.from(signedPart), stranger.privateKeyPem).toString('base64');
    const forgedUrl = `${SSO}?${signedPart}&Signature=${encodeURIComponent(signature)}`;
    assert.equal((await visit(server(), forgedUrl, { cookie: member.cookie })).status, 400, 'signed by another key');
    // The same request signed properly passes: the forgery failed on the key alone.
    const good = sign('sha256', Buffer.from(signedPart), SP_SIGNING.privateKeyPem).toString('base64');
    assert.equal((await visit(server(), `${SSO}?${signedPart}&Signature=${encodeURIComponent(good)}`, { cookie: member.cookie })).status, 200);
    // SHA-1 refused even by the right key.
    const sha1Alg = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
    const sha1Part = `SAMLRequest=${encodeURIComponent(new URL(redirectRequest(authnRequestXml({ issuer: setup.entityId }))).searchParams.get('SAMLRequest')!)}&SigAlg=${encodeURIComponent(sha1Alg)}`;
    const sha1 = sign('sha1', Buffer.from(sha1Part), SP_SIGNING.privateKeyPem).toString('base64');
    assert.equal((await visit(server(), `${SSO}?${sha1Part}&Signature=${encodeURIComponent(sha1)}`, { cookie: member.cookie })).status, 400, 'SHA-1');
  });

  test('IdP-initiated (sp=<entity id>): both libraries accept the unsolicited response; an unknown or inactive SP is refused', async () => {
    const answer = await visit(server(), `${SSO}?sp=${encodeURIComponent(wiki.entityId)}&RelayState=deep-link`, { cookie: member.cookie });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.action, wiki.acsUrl);
    assert.equal(answer.fields.RelayState, 'deep-link');
    const { profile } = await nodeSamlSp(wiki, { inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile!.nameID, member.email);
    assert.equal(profile!.inResponseTo, undefined);
    const { sp, idp } = samlifySp(wiki, await idpMetadata(server(), ORG));
    const { extract }: { extract: any } = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: answer.fields.SAMLResponse } } as any);
    assert.equal(extract.nameID, member.email);
    assert.equal((await visit(server(), `${SSO}?sp=${encodeURIComponent('https://nobody.example.com')}`, { cookie: member.cookie })).status, 404);
    assert.equal((await visit(server(), `${SSO}?sp=${encodeURIComponent('https://off.example.com/metadata')}`, { cookie: member.cookie })).status, 404);
  });

  test('xmlsec1 verifies both signatures (response and assertion) with the certificate from the metadata', async () => {
    const answer = await visit(server(), `${SSO}?sp=${encodeURIComponent(wiki.entityId)}`, { cookie: member.cookie });
    const dir = mkdtempSync(join(tmpdir(), 'saml-idp-xmlsec-'));
    const xmlPath = join(dir, 'response.xml');
    const certPath = join(dir, 'idp.pem');
    const xml = Buffer.from(answer.fields.SAMLResponse!, 'base64').toString('utf8');
    writeFileSync(xmlPath, xml);
    writeFileSync(certPath, `-----BEGIN CERTIFICATE-----\n${wiki.idpCertificates[0]!.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`);
    const verify = (xpath: string, file = xmlPath) => execFileSync('xmlsec1', [
      '--verify', '--pubkey-cert-pem', certPath,
      '--id-attr:ID', 'urn:oasis:names:tc:SAML:2.0:protocol:Response',
      '--id-attr:ID', 'urn:oasis:names:tc:SAML:2.0:assertion:Assertion',
      '--node-xpath', xpath, file,
    ], { stdio: 'pipe' }).toString();
    verify("/*[local-name()='Response']/*[local-name()='Signature']");
    verify("//*[local-name()='Assertion']/*[local-name()='Signature']");
    // A changed NameID breaks both: the check is real.
    const tampered = join(dir, 'tampered.xml');
    writeFileSync(tampered, xml.replace(member.email, 'mallory@example.com'));
    assert.throws(() => verify("//*[local-name()='Assertion']/*[local-name()='Signature']", tampered));
    assert.throws(() => verify("/*[local-name()='Response']/*[local-name()='Signature']", tampered));
  });

  test('without a session the browser goes to the login UI and resumes the same request once', async () => {
    const sp = nodeSamlSp(wiki);
    const url = await sp.getAuthorizeUrlAsync('relay-resume', undefined, {});
    const first = await visit(server(), url);
    assert.equal(first.status, 302);
    const login = new URL(first.location!);
    assert.equal(`${login.origin}${login.pathname}`, `${CANONICAL}/app`);
    const resume = login.searchParams.get('redirect_uri')!;
    assert.match(resume, new RegExp(`^${SSO}\\?resume=[A-Za-z0-9_-]+$`));
    // The login UI page accepts this address as its redirect_uri (own origin).
    assert.equal((await fetch(`${server().baseUrl}/app?redirect_uri=${encodeURIComponent(resume)}`)).status, 200);
    const resumed = await visit(server(), resume, { cookie: member.cookie });
    assert.equal(resumed.status, 200, resumed.body);
    assert.equal(resumed.fields.RelayState, 'relay-resume');
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: resumed.fields.SAMLResponse! });
    assert.equal(profile!.nameID, member.email);
    assert.equal((await visit(server(), resume, { cookie: member.cookie })).status, 400, 'a resume handle serves once');
  });

  test('refusals: malformed, DOCTYPE, replayed, unknown issuer, inactive SP, ACS not registered, stale, another destination, non-member', async () => {
    const cases: Array<[string, string, number]> = [
      ['not base64', `${SSO}?SAMLRequest=%%%`, 400],
      ['not deflated', `${SSO}?SAMLRequest=${encodeURIComponent(Buffer.from('<x/>').toString('base64'))}`, 400],
      ['not XML', redirectRequest('this is not xml <'), 400],
      ['not an AuthnRequest', redirectRequest('<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0"/>'), 400],
      ['DOCTYPE', redirectRequest(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${authnRequestXml()}`), 400],
      ['unknown issuer', redirectRequest(authnRequestXml({ issuer: 'https://evil.example.com' })), 400],
      ['inactive SP', redirectRequest(authnRequestXml({ issuer: 'https://off.example.com/metadata' })), 400],
      ['ACS not registered', redirectRequest(authnRequestXml({ acs: 'https://evil.example.com/acs' })), 400],
      ['stale', redirectRequest(authnRequestXml({ issueInstant: new Date(Date.now() - 10 * 60_000) })), 400],
      ['future', redirectRequest(authnRequestXml({ issueInstant: new Date(Date.now() + 10 * 60_000) })), 400],
      ['another IdP as destination', redirectRequest(authnRequestXml({ destination: `${CANONICAL}/saml/other-org/sso` })), 400],
      ['no request at all', SSO, 400],
    ];
    for (const [name, url, status] of cases) {
      const answer = await visit(server(), url, { cookie: member.cookie });
      assert.equal(answer.status, status, name);
      assert.equal(answer.fields.SAMLResponse, undefined, name);
      assert.doesNotMatch(answer.body, /evil|passwd/, `${name}: nothing echoed`);
    }
    const registeredSecond = await visit(server(), redirectRequest(authnRequestXml({ acs: 'https://wiki.example.com/saml/acs2' })), { cookie: member.cookie });
    assert.equal(registeredSecond.action, 'https://wiki.example.com/saml/acs2', 'a registered non-default ACS is used');
    const byIndex = await visit(server(), redirectRequest(authnRequestXml({ attributes: 'AssertionConsumerServiceIndex="1"' })), { cookie: member.cookie });
    assert.equal(byIndex.action, 'https://wiki.example.com/saml/acs2', 'AssertionConsumerServiceIndex names a registered ACS');
    for (const [name, attributes] of [['unknown index', 'AssertionConsumerServiceIndex="7"'], ['artifact binding', 'ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact"'], ['version 1.1', 'Version="1.1"']]) {
      const xml = authnRequestXml({ attributes }).replace(' Version="2.0"', name === 'version 1.1' ? '' : ' Version="2.0"');
      assert.equal((await visit(server(), redirectRequest(xml), { cookie: member.cookie })).status, 400, name!);
    }

    const replayed = redirectRequest(authnRequestXml());
    assert.equal((await visit(server(), replayed, { cookie: member.cookie })).status, 200);
    assert.equal((await visit(server(), replayed, { cookie: member.cookie })).status, 400, 'the same request ID is answered once');

    const nonMember = await visit(server(), redirectRequest(authnRequestXml()), { cookie: outsider.cookie });
    assert.equal(nonMember.status, 403);
    assert.match(nonMember.body, /Only members of Idp Corp/);
    assert.equal(nonMember.fields.SAMLResponse, undefined);
    assert.equal((await visit(server(), `${CANONICAL}/saml/no-such-org/sso?sp=x`, { cookie: member.cookie })).status, 404);
  });

  test('ForceAuthn: a sign-in older than the request goes through the login UI again (session cookies cleared) until a fresh one', async () => {
    const sp = nodeSamlSp(wiki, { forceAuthn: true });
    const url = await sp.getAuthorizeUrlAsync('', undefined, {});
    assert.match(inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'), /ForceAuthn="true"/);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the member's sign-in is now strictly older
    const res = await fetch(url.replace(CANONICAL, server().baseUrl), { headers: { cookie: member.cookie }, redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.match(res.headers.get('location')!, /\/app\?redirect_uri=/);
    assert.ok(res.headers.getSetCookie().some((cookie) => /^cookie_session=;/.test(cookie) || /^cookie_session=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(cookie)), 'the session cookie is cleared');
    const resume = new URL(res.headers.get('location')!).searchParams.get('redirect_uri')!;
    const stale = await visit(server(), resume, { cookie: member.cookie });
    assert.equal(stale.status, 302, 'the old sign-in does not satisfy ForceAuthn');
    const again = new URL(stale.location!).searchParams.get('redirect_uri')!;
    const freshCookie = await browserSession(server(), member.email);
    const answer = await visit(server(), again, { cookie: freshCookie });
    assert.equal(answer.status, 200, answer.body);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile!.nameID, member.email);
  });

  test('IsPassive: without a session the SP hears NoPassive (signed), with one it gets the assertion', async () => {
    const sp = nodeSamlSp(wiki, { passive: true });
    const anonymous = await visit(server(), await sp.getAuthorizeUrlAsync('passive', undefined, {}));
    assert.equal(anonymous.status, 200, anonymous.body);
    assert.equal(anonymous.action, wiki.acsUrl);
    assert.equal(anonymous.fields.RelayState, 'passive');
    assert.match(Buffer.from(anonymous.fields.SAMLResponse!, 'base64').toString('utf8'), /status:NoPassive/);
    const noPassive = await sp.validatePostResponseAsync({ SAMLResponse: anonymous.fields.SAMLResponse! });
    assert.equal(noPassive.profile, null, 'node-saml reads a signed NoPassive');
    const signedIn = await visit(server(), await sp.getAuthorizeUrlAsync('', undefined, {}), { cookie: member.cookie });
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: signedIn.fields.SAMLResponse! });
    assert.equal(profile!.nameID, member.email);
  });

  test('a DEFLATE bomb is refused within its bound', async () => {
    const bomb = deflateRawSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 16 * 1024);
    const answer = await visit(server(), `${SSO}?SAMLRequest=${encodeURIComponent(bomb.toString('base64'))}`, { cookie: member.cookie });
    assert.equal(answer.status, 400);
  });

  test('the assertion: audience, recipient, destination and time window as the profile asks', async () => {
    const sp = nodeSamlSp(wiki);
    const url = await sp.getAuthorizeUrlAsync('', undefined, {});
    const requestId = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'))![1]!;
    const xml = Buffer.from((await visit(server(), url, { cookie: member.cookie })).fields.SAMLResponse!, 'base64').toString('utf8');
    const attribute = (element: string, name: string) => new RegExp(`<saml:${element}[^>]* ${name}="([^"]+)"`).exec(xml)?.[1];
    assert.equal(/<samlp:Response[^>]* Destination="([^"]+)"/.exec(xml)![1], wiki.acsUrl);
    assert.equal(/<samlp:Response[^>]* InResponseTo="([^"]+)"/.exec(xml)![1], requestId);
    assert.equal(/<saml:Audience>([^<]+)<\/saml:Audience>/.exec(xml)![1], wiki.entityId);
    assert.equal(attribute('SubjectConfirmationData', 'Recipient'), wiki.acsUrl);
    assert.equal(attribute('SubjectConfirmationData', 'InResponseTo'), requestId);
    assert.equal(attribute('SubjectConfirmationData', 'NotBefore'), undefined, 'Profiles 4.1.4.2: no NotBefore on a bearer confirmation');
    const now = Date.now();
    const notBefore = Date.parse(attribute('Conditions', 'NotBefore')!);
    const notOnOrAfter = Date.parse(attribute('Conditions', 'NotOnOrAfter')!);
    assert.ok(notBefore <= now && notBefore >= now - 2 * 60_000);
    assert.ok(notOnOrAfter > now && notOnOrAfter <= now + 6 * 60_000);
    assert.equal(Date.parse(attribute('SubjectConfirmationData', 'NotOnOrAfter')!), notOnOrAfter);
    assert.ok(attribute('AuthnStatement', 'SessionIndex'));
    assert.match(xml, /SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#rsa-sha256"/);
    assert.doesNotMatch(xml, /sha1/);
  });

  test('a disabled organization serves neither metadata nor sign-in', async () => {
    const off = await over('rest', 'create_organization', { name: 'idp-sso-off' });
    await over('rest', 'create_saml_service_provider', { org_id: off.id, name: 'X', entity_id: 'urn:x', acs_endpoints: [{ url: 'https://x.example.com/acs' }] });
    await over('rest', 'add_org_member', { org_id: off.id, user_id: member.userId });
    assert.equal((await visit(server(), `${CANONICAL}/saml/idp-sso-off/sso?sp=urn:x`, { cookie: member.cookie })).status, 200);
    await over('rest', 'update_organization', { id: off.id, enabled: false });
    assert.equal((await fetch(`${server().baseUrl}/saml/idp-sso-off/metadata`)).status, 404);
    assert.equal((await visit(server(), `${CANONICAL}/saml/idp-sso-off/sso?sp=urn:x`, { cookie: member.cookie })).status, 404);
  });

  test('only a verified address is asserted: emailAddress NameID refused and the email attribute left out for an unverified one', async () => {
    const email = `unverified-${randomBytes(4).toString('hex')}@example.com`;
    const userId = await signUp(server(), email, { verified: false });
    await over('rest', 'add_org_member', { org_id: orgId, user_id: userId });
    const cookie = await browserSession(server(), email);
    const refused = await visit(server(), `${SSO}?sp=${encodeURIComponent(wiki.entityId)}`, { cookie });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /no verified one/);
    assert.equal(refused.fields.SAMLResponse, undefined);
    const sp = await over('rest', 'create_saml_service_provider', {
      org_id: orgId, name: 'Opaque', entity_id: 'urn:opaque', acs_endpoints: [{ url: 'https://opaque.example.com/acs' }], name_id_format: 'persistent',
      attribute_mapping: [{ field: 'email', attribute: 'mail' }, { field: 'id', attribute: 'uid' }],
    });
    const answer = await visit(server(), `${SSO}?sp=urn:opaque`, { cookie });
    assert.equal(answer.status, 200);
    const { profile } = await nodeSamlSp({ org: ORG, entityId: 'urn:opaque', acsUrl: 'https://opaque.example.com/acs', idpCertificates: wiki.idpCertificates }, { inResponseTo: false })
      .validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile!.uid, userId);
    assert.equal(profile!.mail, undefined, 'the unverified address is not asserted');
    await over('rest', 'delete_saml_service_provider', { id: sp.id });
  });

  test('XML signature wrapping of a posted AuthnRequest is refused: the signature must cover the request element itself', async () => {
    const setup = signing();
    const wanting = (await idpMetadata(server(), ORG)).replace('WantAuthnRequestsSigned="false"', 'WantAuthnRequestsSigned="true"');
    const { sp, idp } = samlifySp(setup, wanting);
    const posted = sp.createLoginRequest(idp, 'post') as { context: string; id: string };
    const original = Buffer.from(posted.context, 'base64').toString('utf8');
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(original)![0];
    const unsignedCopy = original.replace(signature, '');
    const root = /^<samlp:AuthnRequest[^>]*>/.exec(original)![0];
    // An attacker's request (another ID and ACS URL) carrying the SP's genuine signature of the nested original.
    const evilRoot = root.replace(/ ID="[^"]+"/, ' ID="_evil0001"').replace(/ AssertionConsumerServiceURL="[^"]+"/, '');
    const issuer = /<saml:Issuer[\s\S]*?<\/saml:Issuer>/.exec(original)![0];
    const wrapped = `${evilRoot}${issuer}${signature}<samlp:Extensions>${unsignedCopy}</samlp:Extensions></samlp:AuthnRequest>`;
    const answer = await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: Buffer.from(wrapped).toString('base64') } });
    assert.equal(answer.status, 400);
    assert.equal(answer.fields.SAMLResponse, undefined);
    // The same ID on both elements, so that a reference by ID could point at either: refused too.
    const sameId = `${root}${issuer}${signature}<samlp:Extensions>${unsignedCopy}</samlp:Extensions></samlp:AuthnRequest>`;
    assert.equal((await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: Buffer.from(sameId).toString('base64') } })).status, 400);
    // The untouched request passes: the refusals come from the wrapping alone.
    assert.equal((await visit(server(), SSO, { cookie: member.cookie, form: { SAMLRequest: posted.context } })).status, 200);
  });
});
