/**
 * SP-initiated single logout by the HTTP-Redirect binding (SAML 2.0 Profiles 4.4.3) with node-saml as the
 * SP: a signed LogoutRequest for the signed-in user ends this server's session (the session refused
 * afterwards, cookies cleared) and node-saml accepts the signed LogoutResponse posted to its
 * SingleLogoutService; a request naming another user ends nothing (Requester); unsigned requests, SPs
 * without a certificate or SingleLogoutService, and a replayed request are refused.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { orgCallersOnServer } from '../support/org-callers.ts';
import { makeCertificate } from '../support/saml-idp.ts';
import { CANONICAL, browserSession, idpMetadata, metadataCertificates, nodeSamlSp, signUp, visit, type SpSetup } from './idp-browser.ts';

const ORG = 'idp-slo';
const SLO = `${CANONICAL}/saml/${ORG}/slo`;
const SP_KEY = makeCertificate({ cn: 'slo-sp.example.com' });
const SP_SLO = 'https://slo-sp.example.com/slo';

describe('SAML IdP single logout', () => {
  const callers = orgCallersOnServer();
  const { server, over } = callers;
  let email: string;
  let setup: SpSetup;

  before(async () => {
    const org = await over('rest', 'create_organization', { name: ORG });
    email = `slo-${randomBytes(4).toString('hex')}@example.com`;
    await over('rest', 'add_org_member', { org_id: org.id, user_id: await signUp(server(), email) });
    const created = await over('rest', 'create_saml_service_provider', {
      org_id: org.id, name: 'SLO', entity_id: 'https://slo-sp.example.com/metadata', acs_endpoints: [{ url: 'https://slo-sp.example.com/acs' }],
      certificate: SP_KEY.certificatePem, slo_url: SP_SLO,
    });
    assert.equal(created.slo_url, SP_SLO);
    await over('rest', 'create_saml_service_provider', { org_id: org.id, name: 'No SLO', entity_id: 'urn:no-slo', acs_endpoints: [{ url: 'https://no-slo.example.com/acs' }] });
    const metadata = await idpMetadata(server(), ORG);
    assert.match(metadata, new RegExp(`<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SLO}"/>`));
    setup = { org: ORG, entityId: 'https://slo-sp.example.com/metadata', acsUrl: 'https://slo-sp.example.com/acs', idpCertificates: metadataCertificates(metadata), signing: SP_KEY };
  });

  // validate_session reads the session without refreshing it (POST /v1/session would rotate the cookie).
  const session = async (cookie: string) => (await fetch(`${server().baseUrl}/v1/validate_session`, { method: 'POST', headers: { cookie, origin: server().baseUrl, 'content-type': 'application/json' }, body: '{}' })).status;

  test('a signed LogoutRequest for the signed-in user ends the session; node-saml accepts the signed LogoutResponse', async () => {
    const cookie = await browserSession(server(), email);
    const sp = nodeSamlSp(setup, { sloUrl: SP_SLO });
    const login = await visit(server(), await sp.getAuthorizeUrlAsync('', undefined, {}), { cookie });
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: login.fields.SAMLResponse! });
    assert.equal(await session(cookie), 200);

    const logoutUrl = await sp.getLogoutUrlAsync(profile!, 'after-logout', {});
    assert.match(logoutUrl, /Signature=/);
    const res = await fetch(logoutUrl.replace(CANONICAL, server().baseUrl), { headers: { cookie } });
    assert.equal(res.status, 200);
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('cookie_session=')), 'the session cookie is cleared');
    const body = await res.text();
    assert.match(body, new RegExp(`action="${SP_SLO}"`));
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(body)![1]!;
    assert.match(body, /name="RelayState" value="after-logout"/);
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    assert.match(xml, /status:Success/);
    const requestId = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(new URL(logoutUrl).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'))![1];
    assert.match(xml, new RegExp(`InResponseTo="${requestId}"`));
    // node-saml checks a posted LogoutResponse's signature and issuer; its InResponseTo rule reads only a
    // Response's, so it is checked above by hand.
    const outcome = await nodeSamlSp(setup, { sloUrl: SP_SLO, inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: samlResponse });
    assert.equal(outcome.loggedOut, true);
    const forged = Buffer.from(xml.replace('status:Success', 'status:Requester')).toString('base64');
    await assert.rejects(nodeSamlSp(setup, { sloUrl: SP_SLO, inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: forged }), 'the LogoutResponse signature is checked');
    assert.equal(await session(cookie), 401, 'the session ended on the server, not only in the browser');
    assert.equal((await visit(server(), logoutUrl)).status, 400, 'the same LogoutRequest is answered once');
  });

  test('a request naming another user ends nothing; unsigned requests and SPs without SLO are refused', async () => {
    const cookie = await browserSession(server(), email);
    const sp = nodeSamlSp(setup, { sloUrl: SP_SLO });
    const other = await sp.getLogoutUrlAsync({ issuer: setup.entityId, nameID: 'someone-else@example.com', nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' } as any, '', {});
    const answer = await visit(server(), other, { cookie });
    assert.equal(answer.status, 200);
    assert.match(Buffer.from(answer.fields.SAMLResponse!, 'base64').toString('utf8'), /status:Requester/);
    assert.equal(await session(cookie), 200, 'still signed in');

    const xml = (issuer: string) => `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${SLO}"><saml:Issuer>${issuer}</saml:Issuer><saml:NameID>${email}</saml:NameID></samlp:LogoutRequest>`;
    const unsigned = (issuer: string) => `${SLO}?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml(issuer))).toString('base64'))}`;
    assert.equal((await visit(server(), unsigned(setup.entityId), { cookie })).status, 400, 'unsigned');
    assert.equal((await visit(server(), unsigned('urn:no-slo'), { cookie })).status, 400, 'an SP without certificate and SingleLogoutService');
    assert.equal((await visit(server(), unsigned('urn:unknown'), { cookie })).status, 400, 'unknown SP');
    assert.equal((await visit(server(), SLO, { cookie })).status, 400, 'no request');
    assert.equal(await session(cookie), 200, 'none of them ended the session');
  });
});
