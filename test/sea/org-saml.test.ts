/**
 * Organization SAML sign-in in the single executable: @node-saml/node-saml (with xml-crypto, xmldom and
 * xml2js) is not in the main script (build/driver-bundles.ts bundles it as an asset, loaded by the first
 * SAML response through the lowered `import()` of modules/org-sso/saml-response.ts), and the executable,
 * alone in an empty folder, signs a person in through a SAML IdP: samlify plays the IdP
 * (test/support/saml-idp.ts), reading the AuthnRequest of the start's redirect and signing the response
 * the browser posts to the ACS; the account is made in the verified domain with signup closed, and a
 * response changed after signing is refused (the asset's XML signature check really runs).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SamlTestIdp, decodeResponse, encodeResponse, type ReadRequest, type SamlUser } from '../support/saml-idp.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { SECRETS, freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Running, mainScriptInputs } from './executable.ts';
import { adminClient } from '../support/admin-client.ts';

const APP = 'https://app.example.com/callback';
const ADA: SamlUser = { nameId: 'ada-0001', email: 'ada@acme-corp.com', givenName: 'Ada' };
/** node-saml and the packages it brings (its package.json dependencies). */
const SAML_PACKAGES = ['@node-saml/node-saml', 'xml-crypto', '@xmldom/xmldom', '@xmldom/is-dom-node', 'xml-encryption', 'xml2js', 'xmlbuilder', 'xpath'];

describe('single executable: organization SAML sign-in', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let server: Running;
  let base: string;
  let acme: { id: string };
  let spMetadata: string;
  const idp = new SamlTestIdp();
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const admin = (op: string, body: unknown) => adminClient({ baseUrl: base }, { secret: SECRETS.adminSecret }).ok(op, body);
  // The server's canonical --url is the address it listens on: nothing to map.
  const browserFor = () => new TestBrowser(base, [], base);
  const sessionOf = (browser: TestBrowser) => post('/v1/session', {}, { cookie: browser.cookieHeader() });

  /** The start, up to the IdP: the AuthnRequest as the IdP reads it. */
  async function start(browser: TestBrowser, state: string): Promise<ReadRequest> {
    const hop = await browser.request(`${base}/sso/acme/start?${new URLSearchParams({ redirect_uri: APP, state })}`);
    assert.equal(hop.status, 302, hop.body?.slice(0, 300));
    assert.ok(hop.location!.startsWith(idp.ssoUrl), hop.location);
    return idp.readRequest(spMetadata, hop.location!);
  }

  const postResponse = (browser: TestBrowser, samlResponse: string, relayState: string) =>
    browser.request(`${base}/sso/saml/acme/acs`, { method: 'POST', form: { SAMLResponse: samlResponse, RelayState: relayState } });

  before(async () => {
    copy = isolatedCopy();
    const ports = await freePorts();
    base = `http://127.0.0.1:${ports.http}`;
    server = run(copy.executable, serverFlags(copy.dir, ports, ['--allowed-origins', '*,https://app.example.com', '--enable-signup=false']), copy.dir);
    await waitFor200(`${base}/readyz`, server, performance.now());
    acme = await admin('create_organization', { name: 'acme', display_name: 'Acme Corp' });
    await admin('add_verified_org_domain', { org_id: acme.id, domain: 'acme-corp.com' });
    await admin('create_org_saml_connection', { org_id: acme.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem });
    const metadata = await fetch(`${base}/sso/saml/acme/metadata`);
    assert.equal(metadata.status, 200);
    spMetadata = await metadata.text();
  });
  after(async () => {
    if (server) await stop(server);
    copy?.cleanup();
  });

  test('the main script holds no part of @node-saml/node-saml', () => {
    const main = mainScriptInputs();
    assert.deepEqual(SAML_PACKAGES.flatMap(main.bundled), [], 'node-saml or its XML packages are bundled into the main script');
    assert.ok(main.separated('@node-saml/node-saml'), 'the main script loads it from its asset');
  });

  test('signs a person in through a SAML IdP: account in the verified domain, session, membership', async () => {
    const browser = browserFor();
    const request = await start(browser, 'sea-state');
    const answer = await postResponse(browser, await idp.respond(spMetadata, request.id, ADA), request.relayState);
    assert.equal(answer.status, 302, answer.body?.slice(0, 400));
    assert.equal(answer.location, `${APP}?state=sea-state`);
    const session = await sessionOf(browser);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.user.email, 'ada@acme-corp.com');
    const members = await admin('org_members', { org_id: acme.id });
    assert.ok(members.members.some((m: any) => m.user_id === session.body.user.id), 'a member of the organization');
    assert.equal(server.output().stderr, '');
  });

  test('refuses a response whose signed assertion was changed after signing', async () => {
    const browser = browserFor();
    const request = await start(browser, 'tampered');
    const signed = decodeResponse(await idp.respond(spMetadata, request.id, ADA));
    const tampered = encodeResponse(signed.replace('ada@acme-corp.com', 'mallory@acme-corp.com').replace('>ada-0001<', '>mallory-0666<'));
    assert.match(decodeResponse(tampered), /mallory@acme-corp.com/);
    const answer = await postResponse(browser, tampered, request.relayState);
    assert.equal(answer.status, 400, answer.body?.slice(0, 400));
    assert.equal(answer.location, undefined);
    assert.match(answer.body!, /sign-in service sent an answer this server cannot accept/);
    assert.equal((await sessionOf(browser)).status, 401, 'no session');
    assert.equal(server.output().stderr, '');
  });
});
