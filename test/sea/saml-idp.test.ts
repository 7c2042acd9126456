/**
 * The SAML identity provider in the single executable: its XML parser (@xmldom/xmldom), its response
 * signer (xml-crypto) and its certificate maker (@peculiar/x509 with reflect-metadata) are not in the main
 * script (build/driver-bundles.ts bundles each as an asset, loaded by the lowered `import()` of
 * modules/saml-idp/safe-xml.ts, signed-response.ts and key-material.ts), and the executable, alone in an
 * empty folder, signs a member of an organization in to a service provider: @node-saml/node-saml plays
 * the SP, sending its AuthnRequest by HTTP-Redirect with the member's session and validating the posted
 * response against the IdP metadata; after rotate_saml_idp_cert the metadata lists both keys and the new
 * key's response is accepted by an SP holding the refreshed metadata.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { SECRETS, freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Running, mainScriptInputs } from './executable.ts';
import { adminClient } from '../support/admin-client.ts';
import { loggedIn, signedUpUser } from '../support/signed-in-user.ts';

const ORG = 'acme';
const SP_ENTITY = 'https://wiki.example.com/metadata';
const ACS = 'https://wiki.example.com/saml/acs';
const EMAIL = 'ada@acme-corp.com';
const PASSWORD = 'Str0ng!sea-saml-idp-pass';
/** The IdP's XML, signature and certificate packages (server/modules/saml-idp), each loaded from its asset. */
const IDP_PACKAGES = ['@xmldom/xmldom', 'xml-crypto', '@peculiar/x509', 'reflect-metadata'];
/** ...and the packages they bring (their package.json dependencies). */
const BROUGHT_PACKAGES = [
  'xpath', '@xmldom/is-dom-node',
  '@peculiar/asn1-cms', '@peculiar/asn1-csr', '@peculiar/asn1-ecc', '@peculiar/asn1-pkcs9', '@peculiar/asn1-rsa', '@peculiar/asn1-schema',
  '@peculiar/asn1-x509', '@peculiar/asn1-x509-post-quantum', 'pvtsutils', 'tslib', 'tsyringe',
];

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const metadataCertificates = (xml: string) => [...xml.matchAll(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((match) => match[1]!);

describe('single executable: SAML identity provider', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let server: Running;
  let base: string;
  let cookie: string;
  let acme: { id: string };
  const admin = (op: string, body: unknown) => adminClient({ baseUrl: base }, { secret: SECRETS.adminSecret }).ok(op, body);
  const metadata = async () => {
    const res = await fetch(`${base}/saml/${ORG}/metadata`);
    assert.equal(res.status, 200);
    return res.text();
  };
  /** node-saml as the SP, trusting the certificates of the IdP metadata it holds. */
  const spHolding = (idpMetadata: string, inResponseTo = ValidateInResponseTo.always) =>
    new SAML({
      entryPoint: `${base}/saml/${ORG}/sso`,
      issuer: SP_ENTITY,
      callbackUrl: ACS,
      audience: SP_ENTITY,
      idpCert: metadataCertificates(idpMetadata),
      idpIssuer: `${base}/saml/${ORG}/metadata`,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: true,
      validateInResponseTo: inResponseTo,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });

  /** SP-initiated by HTTP-Redirect with the member's session: the auto-posting form, read back. */
  async function signIn(sp: SAML, relayState: string) {
    const res = await fetch(await sp.getAuthorizeUrlAsync(relayState, undefined, {}), { headers: { cookie }, redirect: 'manual' });
    const body = await res.text();
    assert.equal(res.status, 200, body.slice(0, 400));
    const fields: Record<string, string> = {};
    for (const match of body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(match[1]!)] = unescapeHtml(match[2]!);
    const action = body.match(/<form method="post" action="([^"]*)">/)?.[1];
    return { action: action && unescapeHtml(action), fields };
  }

  before(async () => {
    copy = isolatedCopy();
    const ports = await freePorts();
    base = `http://127.0.0.1:${ports.http}`;
    server = run(copy.executable, serverFlags(copy.dir, ports), copy.dir);
    await waitFor200(`${base}/readyz`, server, performance.now());
    acme = await admin('create_organization', { name: ORG, display_name: 'Acme Corp' });
    const member = await signedUpUser({ baseUrl: base }, { email: EMAIL, password: PASSWORD, profile: { given_name: 'Ada', family_name: 'Lovelace' } });
    // The IdP asserts an email address only once verified (an SP takes it as proven).
    await admin('update_user', { id: member.userId, email_verified: true });
    await admin('add_org_member', { org_id: acme.id, user_id: member.userId, roles: ['editor'] });
    cookie = (await loggedIn({ baseUrl: base }, { email: EMAIL, password: PASSWORD })).cookies;
    await admin('create_saml_service_provider', { org_id: acme.id, name: 'Wiki', entity_id: SP_ENTITY, acs_endpoints: [{ url: ACS }] });
  });
  after(async () => {
    if (server) await stop(server);
    copy?.cleanup();
  });

  test('the main script holds none of the IdP XML, signature and certificate packages', () => {
    const main = mainScriptInputs();
    assert.deepEqual([...IDP_PACKAGES, ...BROUGHT_PACKAGES].flatMap(main.bundled), [], 'an IdP package is bundled into the main script');
    for (const name of IDP_PACKAGES) assert.ok(main.separated(name), `the main script loads ${name} from its asset`);
  });

  test('signs a member in to a service provider: node-saml validates the response against the metadata', async () => {
    const idpMetadata = await metadata();
    assert.match(idpMetadata, new RegExp(`entityID="${base}/saml/${ORG}/metadata"`));
    assert.equal(metadataCertificates(idpMetadata).length, 1);
    const sp = spHolding(idpMetadata);
    const answer = await signIn(sp, 'sea-relay');
    assert.equal(answer.action, ACS);
    assert.equal(answer.fields.RelayState, 'sea-relay');
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile?.nameID, EMAIL);
    assert.equal(profile?.issuer, `${base}/saml/${ORG}/metadata`);
    // A response changed after signing is refused by the SP: the signature really covers it.
    const again = await signIn(sp, '');
    const changed = Buffer.from(Buffer.from(again.fields.SAMLResponse!, 'base64').toString('utf8').replaceAll(EMAIL, 'mallory@acme-corp.com')).toString('base64');
    await assert.rejects(sp.validatePostResponseAsync({ SAMLResponse: changed }), /Invalid document signature/);
    assert.equal(server.output().stderr, '');
  });

  test('rotate_saml_idp_cert: the metadata lists both keys, the new key signs and an SP with that metadata accepts it', async () => {
    const before = metadataCertificates(await metadata());
    await admin('rotate_saml_idp_cert', { org_id: acme.id });
    const refreshed = await metadata();
    const after = metadataCertificates(refreshed);
    assert.equal(after.length, 2);
    assert.ok(after.includes(before[0]!), 'the old key stays published');
    const sp = spHolding(refreshed);
    const answer = await signIn(sp, '');
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile?.nameID, EMAIL);
    // An SP still holding only the old key cannot accept it (its own check of InResponseTo is off here).
    const stale = `<ds:X509Certificate>${before[0]}</ds:X509Certificate>`;
    await assert.rejects(spHolding(stale, ValidateInResponseTo.never).validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! }), /Invalid document signature/, 'the old key no longer signs');
    assert.equal(server.output().stderr, '');
  });
});
