/**
 * Key rollover as SPs see it (docs/api-overview.md#states-and-transitions, "SAML IdP key"): rotate_saml_idp_cert makes a new
 * signing key and keeps the old one in the metadata, not signing; retire_saml_idp_key takes it out. Proved
 * with @node-saml/node-saml and samlify holding the metadata of each moment:
 *
 * - before rotation, responses are signed by key 1;
 * - after rotation, responses are signed by key 2; an SP holding the refreshed metadata (key 2 and key 1)
 *   accepts them and still accepts a response key 1 signed just before the rotation (one in flight); an SP
 *   still holding only key 1 cannot accept key 2's signature: under docs/api-overview.md#states-and-transitions the new key signs at once, so
 *   SPs must load the new metadata at rotation (the published old key is what keeps in-flight responses
 *   good meanwhile);
 * - after retirement, the metadata holds key 2 only: key 1's signatures are refused by an SP with it, and
 *   key 2's accepted.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { orgCallersOnServer } from '../support/org-callers.ts';
import { CANONICAL, browserSession, idpMetadata, metadataCertificates, nodeSamlSp, samlifySp, signUp, visit, type SpSetup } from './idp-browser.ts';

const ORG = 'idp-rollover';
const SP_ENTITY = 'https://rollover.example.com/metadata';
const ACS = 'https://rollover.example.com/acs';

describe('SAML IdP key rollover seen by SPs', () => {
  const callers = orgCallersOnServer();
  const { server, over } = callers;

  test('rotate, then retire: which metadata accepts which signature', async () => {
    const org = await over('rest', 'create_organization', { name: ORG });
    const email = `roll-${randomBytes(4).toString('hex')}@example.com`;
    await over('rest', 'add_org_member', { org_id: org.id, user_id: await signUp(server(), email) });
    const cookie = await browserSession(server(), email);
    await over('rest', 'create_saml_service_provider', { org_id: org.id, name: 'Rollover', entity_id: SP_ENTITY, acs_endpoints: [{ url: ACS }] });

    const setup = (metadata: string): SpSetup => ({ org: ORG, entityId: SP_ENTITY, acsUrl: ACS, idpCertificates: metadataCertificates(metadata) });
    const respond = async () => (await visit(server(), `${CANONICAL}/saml/${ORG}/sso?sp=${encodeURIComponent(SP_ENTITY)}`, { cookie })).fields.SAMLResponse!;
    const accepts = async (metadata: string, response: string) => {
      try {
        const { profile } = await nodeSamlSp(setup(metadata), { inResponseTo: false }).validatePostResponseAsync({ SAMLResponse: response });
        return profile?.nameID === email;
      } catch {
        return false;
      }
    };
    const samlifyAccepts = async (metadata: string, response: string) => {
      const { sp, idp } = samlifySp(setup(metadata), metadata);
      try {
        const { extract } = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: response } } as any);
        return (extract as any).nameID === email;
      } catch {
        return false;
      }
    };

    const before = await idpMetadata(server(), ORG);
    assert.equal(metadataCertificates(before).length, 1);
    const byKey1 = await respond();
    assert.ok(await accepts(before, byKey1));

    const rotated = await over('rest', 'rotate_saml_idp_cert', { org_id: org.id });
    const [key2, key1] = rotated.keys;
    assert.deepEqual([key2.state, key1.state], ['current', 'published']);
    const afterRotation = await idpMetadata(server(), ORG);
    assert.equal(metadataCertificates(afterRotation).length, 2, 'the published key stays in the metadata');
    assert.ok(metadataCertificates(afterRotation).includes(metadataCertificates(before)[0]!));
    const byKey2 = await respond();
    assert.ok(await accepts(afterRotation, byKey2), 'refreshed metadata: the new key');
    assert.ok(await samlifyAccepts(afterRotation, byKey2), 'samlify too');
    assert.ok(await accepts(afterRotation, byKey1), 'refreshed metadata: a response signed by the old key before the rotation');
    assert.ok(await samlifyAccepts(afterRotation, byKey1), 'samlify too');
    assert.equal(await accepts(before, byKey2), false, 'old metadata alone cannot check the new key');

    const retired = await over('rest', 'retire_saml_idp_key', { org_id: org.id, key_id: key1.id });
    assert.deepEqual(retired.keys.map((k: any) => k.state), ['current', 'retired']);
    const afterRetirement = await idpMetadata(server(), ORG);
    assert.deepEqual(metadataCertificates(afterRetirement), metadataCertificates(afterRotation).filter((c) => c !== metadataCertificates(before)[0]), 'the retired key left the metadata');
    const again = await respond();
    assert.ok(await accepts(afterRetirement, again));
    assert.ok(await samlifyAccepts(afterRetirement, again));
    assert.equal(await accepts(afterRetirement, byKey1), false, 'the retired key is no longer trusted by an SP with the new metadata');
    assert.equal(await samlifyAccepts(afterRetirement, byKey1), false);
    assert.equal(await accepts(before, again), false);
  });
});
