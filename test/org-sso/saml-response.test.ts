/**
 * The SAML response validator on its own (org-sso/saml-response.ts), against responses the samlify IdP
 * signs: every time rule is also checked on the server's clock (the one tests move), not only on the
 * process's wall clock the library reads; and the identity read from the signed assertion follows the
 * attribute defaults and the configured names (org-sso/saml-identity.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SamlTestIdp, PERSISTENT } from '../support/saml-idp.ts';
import { TestClock } from '../support/test-clock.ts';
import { spMetadataXml } from '../../server/modules/org-sso/saml-sp.ts';
import { SamlResponseError, validateSamlResponse, type ExpectedResponse } from '../../server/modules/org-sso/saml-response.ts';
import { samlIdentity } from '../../server/modules/org-sso/saml-identity.ts';

const config = { url: 'http://127.0.0.1:8080' } as Parameters<typeof spMetadataXml>[0];
const METADATA = spMetadataXml(config, 'acme');
const REQUEST_ID = `_${'ab'.repeat(20)}`;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('SAML response validation', () => {
  const idp = new SamlTestIdp();
  const expected = (clock = new TestClock()): ExpectedResponse => ({
    certificates: [idp.certificate.certificatePem],
    idpEntityId: idp.entityId,
    spEntityId: 'http://127.0.0.1:8080/sso/saml/acme/metadata',
    acsUrl: 'http://127.0.0.1:8080/sso/saml/acme/acs',
    requestId: REQUEST_ID,
    requestedAt: new Date(),
    clock,
  });

  test('a valid response yields the signed assertion: its ID, NameID with format, attributes and how long to remember it', async () => {
    const response = await idp.respond(METADATA, REQUEST_ID, { nameId: 'ada-1', email: 'ada@acme-corp.com', givenName: 'Ada' });
    const assertion = await validateSamlResponse(response, expected());
    assert.match(assertion.assertionId, /^_[0-9a-f]{32}$/);
    assert.equal(assertion.nameId, 'ada-1');
    assert.equal(assertion.nameIdFormat, PERSISTENT);
    assert.deepEqual(assertion.attributes['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'], ['ada@acme-corp.com']);
    const usable = assertion.usableUntil.getTime() - Date.now();
    assert.ok(usable > 6 * 60_000 && usable <= 7 * 60_000, 'five minutes of validity and two of skew');
  });

  test('the Conditions window and the confirmation expiry are checked on the server clock', async () => {
    const clock = new TestClock();
    clock.advance(10 * 60);
    const conditionsOnly = await idp.respond(METADATA, REQUEST_ID, { nameId: 'ada-1' }, { values: { SubjectConfirmationDataNotOnOrAfter: iso(3600_000) } });
    await assert.rejects(validateSamlResponse(conditionsOnly, expected(clock)), (err: Error) => err instanceof SamlResponseError && /Conditions have expired/.test(err.message));
    const confirmation = await idp.respond(METADATA, REQUEST_ID, { nameId: 'ada-1' }, { values: { ConditionsNotOnOrAfter: iso(3600_000) } });
    await assert.rejects(validateSamlResponse(confirmation, expected(clock)), (err: Error) => err instanceof SamlResponseError && /SubjectConfirmationData has expired/.test(err.message));
    const early = new TestClock();
    early.advance(-10 * 60);
    const fresh = await idp.respond(METADATA, REQUEST_ID, { nameId: 'ada-1' });
    await assert.rejects(validateSamlResponse(fresh, expected(early)), (err: Error) => err instanceof SamlResponseError && /not yet valid/.test(err.message));
  });

  test('identity: the email by NameID format, the common attributes, or the configured name; a transient NameID gives no subject', async () => {
    const none = { emailAttribute: null, givenNameAttribute: null, familyNameAttribute: null };
    const read = async (user: Parameters<SamlTestIdp['respond']>[2], values: Record<string, string> = {}) =>
      validateSamlResponse(await idp.respond(METADATA, REQUEST_ID, user, { values }), expected());
    const byNameId = samlIdentity(none, await read({ nameId: 'grace@acme-corp.com', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' }));
    assert.equal(byNameId.email, 'grace@acme-corp.com');
    assert.equal(byNameId.subject, 'emailAddress:grace@acme-corp.com');
    assert.equal(byNameId.emailVerified, true, 'counted only in a verified domain, by sign-in.ts');
    const byClaim = samlIdentity(none, await read({ nameId: 'p-1', email: 'ada@acme-corp.com', givenName: 'Ada' }));
    assert.deepEqual([byClaim.subject, byClaim.email, byClaim.givenName], ['persistent:p-1', 'ada@acme-corp.com', 'Ada']);
    const byMail = samlIdentity(none, await read({ nameId: 'p-2', email: 'bob@acme-corp.com' }, { EmailAttribute: 'mail' }));
    assert.equal(byMail.email, 'bob@acme-corp.com');
    const configured = await read({ nameId: 'p-3', email: 'eve@acme-corp.com' }, { EmailAttribute: 'corpMail' });
    assert.equal(samlIdentity(none, configured).email, undefined, 'an unknown attribute name is not guessed');
    assert.equal(samlIdentity({ ...none, emailAttribute: 'corpMail' }, configured).email, 'eve@acme-corp.com');
    const transient = samlIdentity(none, await read({ nameId: '_x9', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient', email: 't@acme-corp.com' }));
    assert.equal(transient.subject, undefined);
    assert.equal(transient.email, 't@acme-corp.com');
  });
});
