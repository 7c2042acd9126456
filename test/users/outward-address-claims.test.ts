/**
 * What this server tells others about an address is the proof of it (users/address-proof.ts), never the mere
 * verified mark: with email verification off, update_profile {email, old_password} moves the account to an
 * address nobody proved. The ID token (OpenID Connect Core 5.1) and /userinfo (5.3.2) then say
 * email_verified false, and the organization's SAML IdP refuses the emailAddress NameID and leaves the email
 * attribute out, as it did before the change. An administrator's word proves the address, and then all three
 * assert it. The account's own User object keeps email_verified true (SDK compatibility). update_profile and
 * login over REST, GraphQL and gRPC; /userinfo and SAML are HTTP only.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { threeProtocols, type Protocol } from '../support/three-protocols.ts';
import { loggedIn } from '../support/signed-in-user.ts';
import { CANONICAL, metadataCertificates, idpMetadata, nodeSamlSp, visit, type SpSetup } from '../saml-idp/idp-browser.ts';

const PASSWORD = 'Str0ng!outward-claims';
const ORG = 'outward-claims';
const SSO = `${CANONICAL}/saml/${ORG}/sso`;

describe('outward email_verified and SAML addresses are the proof of the address', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  let orgId: string;
  let wiki: SpSetup;
  const opaque = () => ({ org: ORG, entityId: 'urn:outward-opaque', acsUrl: 'https://opaque.example.com/acs', idpCertificates: wiki.idpCertificates });

  before(async () => {
    server = await startServer();
    ops = threeProtocols(server);
    const admin = (name: string, input: Record<string, unknown>) => ops.over('rest', name, input, 'admin');
    orgId = (await admin('create_organization', { name: ORG, display_name: 'Outward Corp' })).id;
    await admin('create_saml_service_provider', {
      org_id: orgId, name: 'Wiki', entity_id: 'https://wiki.example.com/metadata', acs_endpoints: [{ url: 'https://wiki.example.com/saml/acs' }],
      attribute_mapping: [{ field: 'email', attribute: 'mail' }],
    });
    await admin('create_saml_service_provider', {
      org_id: orgId, name: 'Opaque', entity_id: 'urn:outward-opaque', acs_endpoints: [{ url: 'https://opaque.example.com/acs' }], name_id_format: 'persistent',
      attribute_mapping: [{ field: 'email', attribute: 'mail' }, { field: 'id', attribute: 'uid' }],
    });
    wiki = { org: ORG, entityId: 'https://wiki.example.com/metadata', acsUrl: 'https://wiki.example.com/saml/acs', idpCertificates: metadataCertificates(await idpMetadata(server, ORG)) };
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  const userinfo = async (accessToken: string) => {
    const res = await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, unknown>;
  };

  const browserCookie = async (email: string) => (await loggedIn(server, { email, password: PASSWORD })).cookies;

  /** What the organization's IdP asserts to its two SPs for the signed-in account. */
  async function samlView(email: string): Promise<{ nameIdRefused: boolean; nameId?: string; mail?: unknown }> {
    const cookie = await browserCookie(email);
    const answer = await visit(server, `${SSO}?sp=${encodeURIComponent(wiki.entityId)}`, { cookie });
    let nameId: string | undefined;
    if (answer.status === 200) {
      const { profile } = await nodeSamlSp(wiki, { inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
      nameId = profile!.nameID;
    } else {
      assert.equal(answer.status, 400, answer.body);
      assert.match(answer.body, /no verified one/, 'the existing refusal for an account without a verified email');
      assert.equal(answer.fields.SAMLResponse, undefined);
    }
    const other = await visit(server, `${SSO}?sp=urn:outward-opaque`, { cookie });
    assert.equal(other.status, 200, other.body);
    const { profile } = await nodeSamlSp(opaque(), { inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: other.fields.SAMLResponse! });
    return { nameIdRefused: answer.status !== 200, ...(nameId ? { nameId } : {}), mail: profile!.mail };
  }

  for (const protocol of ['rest', 'graphql', 'grpc'] as Protocol[]) {
    test(`${protocol}: an email changed with verification off is not asserted verified; an administrator's proof makes it so`, async () => {
      const tag = randomBytes(4).toString('hex');
      const first = `ada-${tag}@example.com`;
      const changed = `cfo-${tag}@bank.example`;
      const signup = await ops.send(protocol, 'signup', { email: first, password: PASSWORD, confirm_password: PASSWORD });
      assert.ok(signup.ok, JSON.stringify(signup.body));
      const userId = signup.body.user.id;
      assert.ok((await ops.send('rest', 'add_org_member', { org_id: orgId, user_id: userId }, 'admin')).ok);
      assert.deepEqual(await samlView(first), { nameIdRefused: true, mail: undefined }, 'nothing asserted before the change');

      const moved = await ops.send(protocol, 'update_profile', { email: changed, old_password: PASSWORD }, { authorization: `Bearer ${signup.body.access_token}` });
      assert.ok(moved.ok, JSON.stringify(moved.body));

      const login = await ops.send(protocol, 'login', { email: changed, password: PASSWORD });
      assert.ok(login.ok, JSON.stringify(login.body));
      assert.equal(login.body.user.email_verified, true, 'the account\'s own User object keeps its released meaning');
      const idToken = decodeJwt(login.body.id_token);
      assert.equal(idToken.email, changed);
      assert.equal(idToken.email_verified, false, 'the ID token does not assert an address nobody proved');
      assert.equal(idToken.phone_number_verified, false);
      const info = await userinfo(login.body.access_token);
      assert.equal(info.email, changed);
      assert.equal(info.email_verified, false, '/userinfo does not assert it either');
      assert.deepEqual(await samlView(changed), { nameIdRefused: true, mail: undefined }, 'the SAML IdP asserts the changed address to no SP');

      assert.ok((await ops.send(protocol, 'update_user', { id: userId, email_verified: true }, 'admin')).ok);
      const proven = await ops.send(protocol, 'login', { email: changed, password: PASSWORD });
      assert.equal(decodeJwt(proven.body.id_token).email_verified, true);
      assert.equal((await userinfo(proven.body.access_token)).email_verified, true);
      assert.deepEqual(await samlView(changed), { nameIdRefused: false, nameId: changed, mail: changed });
    });
  }
});
