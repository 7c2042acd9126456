/**
 * Organization SSO through a SAML 2.0 IdP, this server being the service provider, end to end over real
 * HTTP: samlify plays the IdP (test/support/saml-idp.ts), reading our HTTP-Redirect AuthnRequest and signing
 * its response as real IdPs do. Covers the start (AuthnRequest, RelayState handle, browser binding, the
 * OIDC-first rule), the first sign-in creating the account and membership in a verified domain with signup
 * closed, the second reusing the link, linking an existing account, and each refusal of the ACS: unsigned
 * or foreign-signed assertion, SHA-1 signatures, tampering after signing, XML signature wrapping, audience, destination,
 * recipient, issuer, status, expiry and not-yet-valid (with the two-minute skew), unknown InResponseTo and
 * IdP-initiated responses, replays of the response and of the assertion ID, another browser, another
 * organization's ACS, a connection deleted or an organization disabled mid-flow, an address outside the
 * verified domains, and an oversized message. No refusal echoes the XML.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { restClient } from '../support/rest-client.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { SamlTestIdp, decodeResponse, encodeResponse, makeCertificate, type AnswerOptions, type ReadRequest, type SamlUser } from '../support/saml-idp.ts';
import { createUser, findUserByEmail } from '../../server/modules/users/index.ts';
import { systemClock } from '../../server/kernel/deps.ts';

const APP = 'https://app.example.com/callback';
const CANONICAL = 'http://127.0.0.1:8080';
const ADA: SamlUser = { nameId: 'ada-0001', email: 'ada@acme-corp.com', givenName: 'Ada' };
const MALLORY: SamlUser = { nameId: 'mallory-0666', email: 'mallory@acme-corp.com' };
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('organization SSO sign-in through a SAML IdP', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const callers = orgCallers(() => server, () => grpc);
  const { over } = callers;
  const idp = new SamlTestIdp();
  let acme: { id: string };
  let connectionId: string;
  const metadata = new Map<string, string>();

  const browserFor = () => new TestBrowser(server.baseUrl, []);
  const startUrl = (org = 'acme', state = 'app-state') => `${server.baseUrl}/sso/${org}/start?${new URLSearchParams({ redirect_uri: APP, state })}`;
  const sessionOf = (browser: TestBrowser) => restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });

  async function spMetadata(org: string): Promise<string> {
    if (!metadata.has(org)) {
      const res = await fetch(`${server.baseUrl}/sso/saml/${org}/metadata`);
      assert.equal(res.status, 200);
      metadata.set(org, await res.text());
    }
    return metadata.get(org)!;
  }

  /** The start, up to the IdP: the AuthnRequest as the IdP reads it. */
  async function start(browser: TestBrowser, org = 'acme', state = 'app-state', via = idp): Promise<ReadRequest> {
    const hop = await browser.request(startUrl(org, state));
    assert.equal(hop.status, 302, hop.body?.slice(0, 300));
    assert.ok(hop.location!.startsWith(via.ssoUrl), hop.location);
    return via.readRequest(await spMetadata(org), hop.location!);
  }

  const post = (browser: TestBrowser, samlResponse: string, relayState: string | undefined, org = 'acme') =>
    browser.request(`${CANONICAL}/sso/saml/${org}/acs`, { method: 'POST', form: { SAMLResponse: samlResponse, ...(relayState === undefined ? {} : { RelayState: relayState }) } });

  async function respond(request: ReadRequest | undefined, user: SamlUser, options: AnswerOptions = {}, org = 'acme', via = idp): Promise<string> {
    return via.respond(await spMetadata(org), request?.id, user, options);
  }

  /** A refusal: a page with the status, no redirect, no session, and nothing of the XML in it. */
  async function assertRefused(browser: TestBrowser, answer: Awaited<ReturnType<typeof post>>, status: number, message?: RegExp): Promise<void> {
    assert.equal(answer.status, status, answer.body?.slice(0, 400));
    assert.equal(answer.location, undefined);
    assert.ok(!/saml:|samlp:|<\?xml|ds:Signature/.test(answer.body!), 'nothing of the XML is echoed');
    if (message) assert.match(answer.body!, message);
    assert.equal((await sessionOf(browser)).status, 401, 'no session');
  }

  before(async () => {
    server = await startServer(['--allowed-origins', '*,https://app.example.com', '--enable-signup=false']);
    grpc = createGrpcClient(server.ports.grpc!);
    acme = await over('rest', 'create_organization', { name: 'acme', display_name: 'Acme Corp' });
    await over('rest', 'add_verified_org_domain', { org_id: acme.id, domain: 'acme-corp.com' });
    connectionId = (await over('rest', 'create_org_saml_connection', {
      org_id: acme.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem,
    })).id;
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('discovery routes the verified domain to the organization with a SAML connection', async () => {
    assert.deepEqual(await over('rest', 'org_discovery', { email: 'someone@acme-corp.com' }, 'anonymous'), { sso: true, organization: 'acme', display_name: 'Acme Corp', sso_url: `${CANONICAL}/sso/acme/start` });
    assert.equal((await restClient(server).get('/v1/meta')).body.is_org_discovery_enabled, true);
  });

  test('the start sends the browser to the IdP with an AuthnRequest for our ACS and an opaque RelayState', async () => {
    const browser = browserFor();
    const hop = await browser.request(startUrl('acme', 'my-app-state'));
    assert.equal(hop.status, 302);
    // The IdP posts back cross-site: only a SameSite=None (so Secure) cookie comes along.
    assert.ok(hop.setCookies.some((c) => /^portcullis_saml=.+HttpOnly/i.test(c) && /Path=\/sso/.test(c) && /Secure/.test(c) && /SameSite=None/.test(c)), 'a browser-bound cookie');
    const request = await idp.readRequest(await spMetadata('acme'), hop.location!);
    assert.match(request.id, /^_[0-9a-f]{40}$/);
    assert.match(request.relayState, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!hop.location!.includes('my-app-state'), 'the application state stays here');
    assert.match(request.xml, new RegExp(`AssertionConsumerServiceURL="${CANONICAL}/sso/saml/acme/acs"`));
    assert.match(request.xml, new RegExp(`Destination="${idp.ssoUrl}"`));
    assert.match(request.xml, /ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"/);
    assert.match(request.xml, new RegExp(`<saml:Issuer>${CANONICAL}/sso/saml/acme/metadata</saml:Issuer>`));
  });

  test('a first sign-in creates the account (signup closed) and the membership, with the verified address and the given name', async () => {
    const browser = browserFor();
    const request = await start(browser, 'acme', 'first');
    const answer = await post(browser, await respond(request, ADA), request.relayState);
    assert.equal(answer.status, 302, answer.body?.slice(0, 400));
    assert.equal(answer.location, `${APP}?state=first`);
    const user = await findUserByEmail(server.app.deps.storage.fork(), 'ada@acme-corp.com');
    assert.ok(user, 'the account exists');
    assert.ok(user.emailVerifiedAt, 'its address is verified');
    assert.equal(user.givenName, 'Ada');
    const session = await sessionOf(browser);
    assert.equal(session.status, 200);
    assert.equal(session.body.user.id, user.id);
    const members = await over('rest', 'org_members', { org_id: acme.id });
    assert.ok(members.members.some((m: any) => m.user_id === user.id), 'a member of the organization');
  });

  test('a second sign-in goes by the NameID link, whatever address the IdP now sends', async () => {
    const ada = await findUserByEmail(server.app.deps.storage.fork(), 'ada@acme-corp.com');
    const browser = browserFor();
    const request = await start(browser, 'acme', 'again');
    const answer = await post(browser, await respond(request, { ...ADA, email: 'ada.lovelace@acme-corp.com' }), request.relayState);
    assert.equal(answer.location, `${APP}?state=again`);
    assert.equal((await sessionOf(browser)).body.user.id, ada!.id);
    assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'ada.lovelace@acme-corp.com'), null, 'no second account');
  });

  test('an existing account in a verified domain is linked; the NameID in emailAddress format is the address by default', async () => {
    const grace = await createUser(server.app.deps.storage.fork(), systemClock, { email: 'grace@acme-corp.com', signupMethods: ['basic_auth'], roles: ['user'] });
    const browser = browserFor();
    const request = await start(browser, 'acme', 'link');
    const user = { nameId: 'grace@acme-corp.com', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' };
    const answer = await post(browser, await respond(request, user), request.relayState);
    assert.equal(answer.location, `${APP}?state=link`);
    assert.equal((await sessionOf(browser)).body.user.id, grace.id);
  });

  test('an address outside the verified domains gets no account, and is never linked to an existing one', async () => {
    await createUser(server.app.deps.storage.fork(), systemClock, { email: 'bob@elsewhere.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link' });
    const cases: Array<[SamlUser, number]> = [[{ nameId: 'newbie', email: 'newbie@elsewhere.com' }, 403], [{ nameId: 'bob', email: 'bob@elsewhere.com' }, 409]];
    for (const [user, status] of cases) {
      const browser = browserFor();
      const request = await start(browser);
      await assertRefused(browser, await post(browser, await respond(request, user), request.relayState), status);
    }
    assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'newbie@elsewhere.com'), null);
  });

  test('a transient NameID keeps no link: each sign-in goes by the verified-domain address', async () => {
    const transient = { nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient', email: 'tess@acme-corp.com' };
    const ids: string[] = [];
    for (const nameId of ['_t1', '_t2']) {
      const browser = browserFor();
      const request = await start(browser, 'acme', nameId);
      assert.equal((await post(browser, await respond(request, { ...transient, nameId }), request.relayState)).location, `${APP}?state=${nameId}`);
      ids.push((await sessionOf(browser)).body.user.id);
    }
    assert.equal(ids[0], ids[1]);
    const links = await server.app.deps.storage.fork().getConnection().execute('select id from org_sso_identities where user_id = ?', [ids[0]]);
    assert.equal(links.length, 0);
  });

  test('repointing the connection to another IdP entity id drops the links made under the old one', async () => {
    const org = await over('rest', 'create_organization', { name: 'epsilon' });
    await over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'epsilon-corp.com' });
    const created = await over('rest', 'create_org_saml_connection', { org_id: org.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem });
    const browser = browserFor();
    const request = await start(browser, 'epsilon');
    assert.equal((await post(browser, await respond(request, { nameId: 'e1', email: 'e1@epsilon-corp.com' }, {}, 'epsilon'), request.relayState, 'epsilon')).status, 302);
    const count = async () => (await server.app.deps.storage.fork().getConnection().execute('select id from org_sso_identities where connection_id = ?', [created.id])).length;
    assert.equal(await count(), 1);
    await over('rest', 'update_org_saml_connection', { id: created.id, idp_entity_id: idp.entityId });
    assert.equal(await count(), 1, 'the same entity id keeps them');
    await over('rest', 'update_org_saml_connection', { id: created.id, idp_entity_id: 'https://another-idp.example.com' });
    assert.equal(await count(), 0);
  });

  test('a NotBefore within the two minutes of clock skew is accepted', async () => {
    const browser = browserFor();
    const request = await start(browser, 'acme', 'skew');
    const answer = await post(browser, await respond(request, ADA, { values: { ConditionsNotBefore: iso(60_000) } }), request.relayState);
    assert.equal(answer.location, `${APP}?state=skew`);
  });

  describe('responses the ACS refuses', () => {
    const other = new SamlTestIdp({ entityId: idp.entityId, certificate: makeCertificate({ cn: 'not-the-idp' }) });
    const sha1 = new SamlTestIdp({ entityId: idp.entityId, certificate: idp.certificate, signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' });
    const unknownId = () => `_${randomBytes(20).toString('hex')}`;

    const cases: Array<[string, (request: ReadRequest) => Promise<string>]> = [
      ['an unsigned response and assertion', (r) => respond(r, MALLORY, { signAssertion: false })],
      ['a signed response around an unsigned assertion', (r) => respond(r, MALLORY, { signAssertion: false, signResponse: true })],
      ['an assertion signed by another key', (r) => respond(r, MALLORY, {}, 'acme', other)],
      ['an assertion signed by the right key with RSA-SHA1', async (r) => {
        const response = await respond(r, MALLORY, {}, 'acme', sha1);
        assert.match(decodeResponse(response), /Algorithm="http:\/\/www.w3.org\/2000\/09\/xmldsig#rsa-sha1"/);
        return response;
      }],
      ['an attribute changed after signing', async (r) => encodeResponse(decodeResponse(await respond(r, ADA)).replace('ada@acme-corp.com', 'mallory@acme-corp.com'))],
      ['the NameID changed after signing (signed response too)', async (r) => encodeResponse(decodeResponse(await respond(r, ADA, { signResponse: true })).replace('>ada-0001<', '>mallory-0666<'))],
      ['an extra unsigned assertion beside the signed one (wrapping)', async (r) => {
        const xml = decodeResponse(await respond(r, ADA));
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const evil = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace(/ID="[^"]+"/, 'ID="_evil"').replace('ada@acme-corp.com', 'mallory@acme-corp.com').replace('>ada-0001<', '>mallory-0666<');
        return encodeResponse(xml.replace(signed, evil + signed));
      }],
      ['the signed assertion moved into Extensions, an unsigned one in its place (wrapping)', async (r) => {
        const xml = decodeResponse(await respond(r, ADA));
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const evil = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace('ada@acme-corp.com', 'mallory@acme-corp.com').replace('>ada-0001<', '>mallory-0666<');
        return encodeResponse(xml.replace(signed, evil).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`));
      }],
      ['the signed assertion wrapped inside an unsigned one (wrapping)', async (r) => {
        const xml = decodeResponse(await respond(r, ADA));
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const evil = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replace(/ID="[^"]+"/, 'ID="_evil"').replace('ada@acme-corp.com', 'mallory@acme-corp.com').replace('>ada-0001<', '>mallory-0666<');
        return encodeResponse(xml.replace(signed, evil.replace('</saml:Assertion>', `<saml:Advice>${signed}</saml:Advice></saml:Assertion>`)));
      }],
      ['another audience', (r) => respond(r, MALLORY, { values: { Audience: `${CANONICAL}/sso/saml/other-org/metadata` } })],
      ['an audience restriction naming no audience', (r) => respond(r, MALLORY, { values: { Audience: undefined } })],
      ['another destination', (r) => respond(r, MALLORY, { values: { Destination: 'https://sp.example.net/acs' } })],
      ['another recipient', (r) => respond(r, MALLORY, { values: { SubjectRecipient: 'https://sp.example.net/acs' } })],
      ['another issuer on the response', (r) => respond(r, MALLORY, { values: { Issuer: 'https://evil.example.com' } })],
      ['another issuer on the signed assertion', (r) => respond(r, MALLORY, { values: { AssertionIssuer: 'https://evil.example.com' } })],
      ['a status other than Success', (r) => respond(r, MALLORY, { values: { StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester' } })],
      ['an expired assertion (beyond the skew)', (r) => respond(r, MALLORY, { values: { IssueInstant: iso(-10 * 60_000), ConditionsNotBefore: iso(-10 * 60_000), ConditionsNotOnOrAfter: iso(-3 * 60_000), SubjectConfirmationDataNotOnOrAfter: iso(-3 * 60_000) } })],
      ['an expired subject confirmation only', (r) => respond(r, MALLORY, { values: { SubjectConfirmationDataNotOnOrAfter: iso(-3 * 60_000) } })],
      ['expired conditions only', (r) => respond(r, MALLORY, { values: { ConditionsNotOnOrAfter: iso(-3 * 60_000) } })],
      ['a subject confirmation without NotOnOrAfter', (r) => respond(r, MALLORY, { values: { SubjectConfirmationDataNotOnOrAfter: undefined } })],
      ['an assertion not yet valid (beyond the skew)', (r) => respond(r, MALLORY, { values: { ConditionsNotBefore: iso(5 * 60_000) } })],
      ['InResponseTo a request we never sent', (r) => respond(r, MALLORY, { values: { InResponseTo: unknownId(), SubjectInResponseTo: unknownId() } })],
      ['the confirmation InResponseTo another request', (r) => respond(r, MALLORY, { values: { SubjectInResponseTo: unknownId() } })],
      ['an unsolicited response on a live RelayState', () => respond(undefined, MALLORY)],
    ];
    for (const [name, make] of cases) {
      test(`refused: ${name}`, async () => {
        const browser = browserFor();
        const request = await start(browser);
        await assertRefused(browser, await post(browser, await make(request), request.relayState), 400, /sign-in service sent an answer this server cannot accept/);
      });
    }

    test('refused: an IdP-initiated response (no RelayState)', async () => {
      const browser = browserFor();
      await assertRefused(browser, await post(browser, await respond(undefined, MALLORY), undefined), 400, /must start from the application/);
    });

    test('refused: a response posted again, and a new response reusing a used assertion ID', async () => {
      const browser = browserFor();
      const request = await start(browser, 'acme', 'once');
      const response = await respond(request, ADA);
      assert.equal((await post(browser, response, request.relayState)).location, `${APP}?state=once`);
      const again = browserFor();
      const replay = await post(again, response, request.relayState);
      await assertRefused(again, replay, 400, /unknown, was already used or has expired/);
      // The IdP's assertion ID is recorded: even answering a new request, it is not taken twice.
      const assertionId = /<saml:Assertion[^>]* ID="([^"]+)"/.exec(decodeResponse(response))![1]!;
      const fresh = browserFor();
      const second = await start(fresh);
      await assertRefused(fresh, await post(fresh, await respond(second, ADA, { values: { AssertionID: assertionId } }), second.relayState), 400, /cannot accept/);
    });

    test('refused: a response posted from another browser; the browser that started still finishes', async () => {
      const browser = browserFor();
      const request = await start(browser, 'acme', 'bound');
      const response = await respond(request, ADA);
      const thief = browserFor();
      await assertRefused(thief, await post(thief, response, request.relayState), 400, /another browser/);
      assert.equal((await post(browser, response, request.relayState)).location, `${APP}?state=bound`);
    });

    test('refused: a response posted to another organization\'s ACS', async () => {
      await over('rest', 'create_organization', { name: 'beta' });
      const browser = browserFor();
      const request = await start(browser);
      await assertRefused(browser, await post(browser, await respond(request, ADA), request.relayState, 'beta'), 400, /another organization/);
    });

    test('refused: an oversized or malformed SAMLResponse', async () => {
      const browser = browserFor();
      const request = await start(browser);
      await assertRefused(browser, await post(browser, 'A'.repeat(300 * 1024), request.relayState), 413);
      await assertRefused(browser, await post(browser, '<not base64>', request.relayState), 400);
      const doctype = encodeResponse('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&a;</samlp:Response>');
      const again = await start(browser);
      await assertRefused(browser, await post(browser, doctype, again.relayState), 400);
    });

    after(async () => {
      assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'mallory@acme-corp.com'), null, 'no refusal made an account');
    });
  });

  test('a connection deleted while a flow is in flight stops it, and stops new ones', async () => {
    const org = await over('rest', 'create_organization', { name: 'gamma' });
    await over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'gamma-corp.com' });
    const created = await over('rest', 'create_org_saml_connection', { org_id: org.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem });
    const browser = browserFor();
    const request = await start(browser, 'gamma');
    const response = await respond(request, { nameId: 'g1', email: 'g1@gamma-corp.com' }, {}, 'gamma');
    await over('rest', 'delete_org_saml_connection', { id: created.id });
    await assertRefused(browser, await post(browser, response, request.relayState, 'gamma'), 400, /unknown, was already used or has expired/);
    assert.equal((await browser.request(startUrl('gamma'))).status, 404);
  });

  test('an organization disabled while a flow is in flight refuses it at the ACS, and at the start', async () => {
    const org = await over('rest', 'create_organization', { name: 'delta' });
    await over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'delta-corp.com' });
    await over('rest', 'create_org_saml_connection', { org_id: org.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem });
    const browser = browserFor();
    const request = await start(browser, 'delta');
    const response = await respond(request, { nameId: 'd1', email: 'd1@delta-corp.com' }, {}, 'delta');
    await over('rest', 'update_organization', { id: org.id, enabled: false });
    await assertRefused(browser, await post(browser, response, request.relayState, 'delta'), 403, /turned off or changed/);
    assert.equal((await browser.request(startUrl('delta'))).status, 404);
    assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'd1@delta-corp.com'), null);
  });

  test('a disabled connection refuses flows in flight; OIDC goes first when an organization has both', async () => {
    const browser = browserFor();
    const request = await start(browser);
    const response = await respond(request, ADA);
    await over('rest', 'update_org_saml_connection', { id: connectionId, enabled: false });
    await assertRefused(browser, await post(browser, response, request.relayState), 403, /turned off or changed/);
    assert.equal((await browser.request(startUrl('acme'))).status, 404, 'no enabled connection');

    await over('rest', 'update_org_saml_connection', { id: connectionId, enabled: true });
    const oidc = await over('rest', 'create_org_oidc_connection', { org_id: acme.id, issuer: 'https://oidc.acme-corp.example', client_id: 'portcullis' });
    const viaOidc = await browser.request(startUrl('acme'));
    assert.ok(!viaOidc.location?.startsWith(idp.ssoUrl), 'the enabled OIDC connection is used');
    await over('rest', 'update_org_oidc_connection', { id: oidc.id, enabled: false });
    await start(browser);
    await over('rest', 'delete_org_oidc_connection', { id: oidc.id });
  });
});
