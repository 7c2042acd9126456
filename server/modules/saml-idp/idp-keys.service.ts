/**
 * The signing keys of an organization's SAML identity provider and their states
 * (docs/api-overview.md#states-and-transitions, "SAML IdP key"): exactly one current key signs; rotate_saml_idp_cert
 * demotes it to published (still in
 * the metadata, not signing, so SPs holding the old metadata keep validating while they roll over) and
 * makes a new current one; retire_saml_idp_key retires a published key (it leaves the metadata), and is
 * refused for the signing key. The first key is made on first use (the metadata, the first sign-in, or the
 * key list), so an organization that never uses SAML holds none.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { SamlIdpKey, type SamlIdpKeyRow } from './saml-idp.entities.ts';
import { generateKeyMaterial } from './key-material.ts';

type KeyDeps = Pick<Deps, 'clock' | 'sealer'>;

function commonName(orgName: string): string {
  return `${orgName} SAML IdP`;
}

async function insertCurrentKey(em: EntityManager, deps: KeyDeps, orgId: string, orgName: string): Promise<SamlIdpKeyRow> {
  const now = deps.clock.now();
  const material = await generateKeyMaterial(commonName(orgName), now);
  const row = em.create(SamlIdpKey, {
    id: randomUUID(),
    orgId,
    state: 'current',
    signingOrgId: orgId,
    certificatePem: material.certificatePem,
    privateKeySealed: deps.sealer.seal(material.privateKeyPem),
    fingerprintSha256: material.fingerprintSha256,
    notAfter: material.notAfter,
    createdAt: now,
    demotedAt: null,
    retiredAt: null,
  });
  em.persist(row);
  await em.flush();
  return row;
}

/**
 * The organization's signing key, made if it has none. Two first uses at once both try to insert; the
 * unique signingOrgId lets one win, and the other reads the winner's key.
 */
export async function currentKey(em: EntityManager, deps: KeyDeps, orgId: string, orgName: string): Promise<SamlIdpKeyRow> {
  const found = await em.findOne(SamlIdpKey, { signingOrgId: orgId });
  if (found) return found;
  const fork = em.fork();
  try {
    await insertCurrentKey(fork, deps, orgId, orgName);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const made = await em.findOne(SamlIdpKey, { signingOrgId: orgId }, { refresh: true });
  if (!made) throw new Error('SAML IdP key was not stored');
  return made;
}

/** Current and published keys first (newest first), then retired ones. */
export async function listKeys(em: EntityManager, orgId: string): Promise<SamlIdpKeyRow[]> {
  const rows = await em.find(SamlIdpKey, { orgId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const rank = (row: SamlIdpKeyRow) => (row.state === 'current' ? 0 : row.state === 'published' ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** The keys in the IdP metadata: the current one and the published ones (docs/api-overview.md#states-and-transitions: retired keys leave it). */
export async function publishedKeys(em: EntityManager, orgId: string): Promise<SamlIdpKeyRow[]> {
  return (await listKeys(em, orgId)).filter((row) => row.state !== 'retired');
}

/**
 * docs/api-overview.md#states-and-transitions: the current key becomes published-not-signing and a new current key exists. The old key leaves
 * the signing slot before the new one takes it (the unique signingOrgId), inside the operation's
 * transaction, so a failure leaves the old key signing.
 */
export async function rotateKey(em: EntityManager, deps: KeyDeps, orgId: string, orgName: string): Promise<SamlIdpKeyRow> {
  // An organization without a key yet simply gets its first one.
  const now = deps.clock.now();
  await em.nativeUpdate(SamlIdpKey, { signingOrgId: orgId }, { state: 'published', signingOrgId: null, demotedAt: now });
  try {
    return await insertCurrentKey(em, deps, orgId, orgName);
  } catch (err) {
    // Two rotations at once: the unique signing slot lets one through; the other changes nothing.
    if (isUniqueViolation(err)) throw AppError.precondition('another rotation of this key happened at the same time: read the keys and try again');
    throw err;
  }
}

/** docs/api-overview.md#states-and-transitions: only a published-not-signing key retires; the signing key is refused, a retired one too. */
export async function retireKey(em: EntityManager, deps: KeyDeps, orgId: string, keyId: string): Promise<SamlIdpKeyRow> {
  const row = await em.findOne(SamlIdpKey, { id: keyId, orgId });
  if (!row) throw AppError.notFound('SAML IdP key not found');
  if (row.state === 'current') throw AppError.precondition('this is the signing key: rotate first, then retire it');
  if (row.state === 'retired') throw AppError.precondition('this key is already retired');
  row.state = 'retired';
  row.retiredAt = deps.clock.now();
  await em.flush();
  return row;
}
