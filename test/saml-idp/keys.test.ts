/**
 * SAML IdP keys over REST, GraphQL and gRPC (docs/api-overview.md#states-and-transitions, "SAML IdP key", docs/operations.md, "SAML IdP"):
 * the first key made on first use and current; rotate_saml_idp_cert demotes the current key to published
 * and makes a new current one; retire_saml_idp_key retires a published key and is refused for the signing
 * key and for a retired one; private keys sealed at rest; the org-admin rule.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { orgCallersOnServer, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';

const CANONICAL = 'http://127.0.0.1:8080';

describe('SAML IdP keys', () => {
  const callers = orgCallersOnServer();
  const { server, call, over } = callers;

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: first key on first use, rotate demotes to published, retire removes it, the signing key cannot retire`, async () => {
      const org = await over(protocol, 'create_organization', { name: `idp-keys-${protocol}` });
      const first = await over(protocol, 'saml_idp_keys', { org_id: org.id });
      assert.equal(first.metadata_url, `${CANONICAL}/saml/idp-keys-${protocol}/metadata`);
      assert.equal(first.sso_url, `${CANONICAL}/saml/idp-keys-${protocol}/sso`);
      assert.equal(first.keys.length, 1);
      const [k1] = first.keys;
      assert.equal(k1.state, 'current');
      const cert = new X509Certificate(k1.certificate);
      assert.equal(cert.fingerprint256, k1.fingerprint_sha256);
      assert.equal(cert.publicKey.asymmetricKeyType, 'rsa');
      assert.equal(cert.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
      assert.ok(cert.verify(cert.publicKey), 'self-signed');
      assert.ok(k1.not_after > Date.now() / 1000 + 365 * 86400);
      assert.deepEqual((await over(protocol, 'saml_idp_keys', { org_id: org.id })).keys, first.keys, 'listing again makes no second key');

      const retireSigning = await call(protocol, 'retire_saml_idp_key', { org_id: org.id, key_id: k1.id });
      assert.equal('error' in retireSigning && retireSigning.error, 'failed_precondition');

      const rotated = await over(protocol, 'rotate_saml_idp_cert', { org_id: org.id });
      assert.equal(rotated.keys.length, 2);
      const k2 = rotated.keys.find((k: any) => k.id !== k1.id);
      assert.equal(k2.state, 'current');
      assert.notEqual(k2.fingerprint_sha256, k1.fingerprint_sha256);
      const demoted = rotated.keys.find((k: any) => k.id === k1.id);
      assert.equal(demoted.state, 'published');
      assert.ok(demoted.demoted_at >= k1.created_at);
      assert.equal(rotated.keys[0].id, k2.id, 'the current key comes first');

      const retired = await over(protocol, 'retire_saml_idp_key', { org_id: org.id, key_id: k1.id });
      assert.equal(retired.keys.find((k: any) => k.id === k1.id).state, 'retired');
      assert.equal(retired.keys.find((k: any) => k.id === k2.id).state, 'current');
      const again = await call(protocol, 'retire_saml_idp_key', { org_id: org.id, key_id: k1.id });
      assert.equal('error' in again && again.error, 'failed_precondition', 'a retired key does not retire twice');
      const stillSigning = await call(protocol, 'retire_saml_idp_key', { org_id: org.id, key_id: k2.id });
      assert.equal('error' in stillSigning && stillSigning.error, 'failed_precondition');
      const unknown = await call(protocol, 'retire_saml_idp_key', { org_id: org.id, key_id: '00000000-0000-4000-8000-000000000000' });
      assert.equal('error' in unknown && unknown.error, 'not_found');
    });
  }

  test('rotating an organization that has no key yet makes its first; private keys are sealed at rest, one current key per organization', async () => {
    const org = await over('rest', 'create_organization', { name: 'idp-keys-fresh' });
    const rotated = await over('rest', 'rotate_saml_idp_cert', { org_id: org.id });
    assert.deepEqual(rotated.keys.map((k: any) => k.state), ['current']);
    await over('rest', 'rotate_saml_idp_cert', { org_id: org.id });
    const em = server().app.deps.storage.fork();
    const rows = await em.getConnection().execute('select state, signing_org_id, private_key_sealed from saml_idp_keys where org_id = ?', [org.id]);
    assert.equal(rows.length, 2);
    assert.equal(rows.filter((r: any) => r.signing_org_id === org.id).length, 1);
    for (const row of rows) {
      assert.doesNotMatch(row.private_key_sealed, /PRIVATE KEY/);
      assert.match(server().app.deps.sealer.open(row.private_key_sealed), /^-----BEGIN PRIVATE KEY-----/);
    }
    // A second current key for the organization collides on the unique signing slot.
    await assert.rejects(em.getConnection().execute("update saml_idp_keys set signing_org_id = ? where org_id = ? and state = 'published'", [org.id, org.id]));
  });

  test('concurrent first uses make one current key', async () => {
    const org = await over('rest', 'create_organization', { name: 'idp-keys-race' });
    const lists = await Promise.all(Array.from({ length: 4 }, () => over('rest', 'saml_idp_keys', { org_id: org.id })));
    const ids = new Set(lists.map((list) => list.keys[0].id));
    assert.equal(ids.size, 1);
    assert.equal(lists[0].keys.length, 1);
  });

  describe('the org-admin rule on every key operation', () => {
    let home: { orgId: string; admin: SignedInUser };
    let other: { orgId: string; admin: SignedInUser };
    let outsider: SignedInUser;
    let keyId: string;
    before(async () => {
      home = await callers.orgWithAdmin('idp-keys-home');
      other = await callers.orgWithAdmin('idp-keys-other');
      outsider = await callers.signedInUser();
      keyId = (await over('rest', 'saml_idp_keys', { org_id: home.orgId })).keys[0].id;
      await over('rest', 'rotate_saml_idp_cert', { org_id: home.orgId });
    });

    for (const protocol of PROTOCOLS) {
      test(`${protocol}: outsiders and another organization's admin are refused; anonymous is unauthenticated; the own org-admin may`, async () => {
        const attempts: Array<[string, Record<string, unknown>]> = [
          ['saml_idp_keys', { org_id: home.orgId }],
          ['rotate_saml_idp_cert', { org_id: home.orgId }],
          ['retire_saml_idp_key', { org_id: home.orgId, key_id: keyId }],
        ];
        for (const [name, input] of attempts) {
          for (const [who, as] of [['outsider', { bearer: outsider.token }], ['other org-admin', { bearer: other.admin.token }]] as Array<[string, As]>) {
            const outcome = await call(protocol, name, input, as);
            assert.equal('error' in outcome && outcome.error, 'permission_denied', `${who} ${name}`);
          }
          const anonymous = await call(protocol, name, input, 'anonymous');
          assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `anonymous ${name}`);
        }
        const keys = await over(protocol, 'saml_idp_keys', { org_id: home.orgId }, { bearer: home.admin.token });
        assert.equal(keys.keys.length, 2, 'nothing changed');
        assert.equal(keys.keys.find((k: any) => k.id === keyId).state, 'published');
      });
    }
  });
});
