/**
 * What the audit log keeps of an erased account (docs/privacy.md#what-erasure-does; GDPR Art. 17 with
 * Art. 4(5), pseudonymisation): its entries stay, so that the history of who did what to the instance holds,
 * but they no longer name the person. The account's id becomes a stable pseudonym, and the email address,
 * phone number and the client IP and user agent of what the account itself did are removed.
 *
 * The pseudonym is an HMAC of the id under a key derived from the instance's secret (--encryption-key, else
 * --jwt-secret, the key material of encryption at rest, kernel/encryption.ts), with its own HKDF label: the
 * same account always gets the same pseudonym, so its entries still read as one actor, and nothing stored
 * maps one back to the other. Only someone who holds the instance secret and already knows the id can
 * recompute it, which is the "additional information kept separately" of Art. 4(5).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import { AuditLog, type AuditLogRow } from './audit-log.entity.ts';

const PSEUDONYM_PREFIX = 'erased:';
/** Rows rewritten per statement batch: bounded reads, whatever the account's history. */
const BATCH = 500;

export function erasedUserPseudonym(config: Pick<Config, 'encryptionKey' | 'jwtSecret'>, userId: string): string {
  const material = config.encryptionKey || config.jwtSecret;
  if (!material) throw new Error('no instance secret to derive the erased-account pseudonym from: set --encryption-key');
  const key = Buffer.from(hkdfSync('sha256', material, 'portcullis-erased-account', 'v1', 32));
  return PSEUDONYM_PREFIX + createHmac('sha256', key).update(userId, 'utf8').digest('hex').slice(0, 32);
}

export interface ErasedIdentity {
  userId: string;
  pseudonym: string;
  /**
   * The email address and phone number the account held: removed wherever an entry repeats them. Names are
   * not among them: an entry's metadata holds ids and the names of changed fields, never a profile value
   * (audit.ts safeMetadata), and a short given name would match unrelated text.
   */
  identifiers: readonly string[];
}

/** Replaces every occurrence of the id by the pseudonym and removes the identifiers from a metadata JSON text. */
function scrubText(text: string, erased: ErasedIdentity): string {
  let out = text.split(erased.userId).join(erased.pseudonym);
  for (const identifier of erased.identifiers) out = replaceAllCaseless(out, identifier, '');
  return out;
}

function replaceAllCaseless(text: string, needle: string, replacement: string): string {
  if (!needle) return text;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(escaped, 'gi'), replacement);
}

function scrubbed(row: AuditLogRow, erased: ErasedIdentity): Partial<AuditLogRow> {
  const actedAsUser = row.actorId === erased.userId;
  const namedByEmail = erased.identifiers.some((id) => id && row.actorEmail.toLowerCase() === id.toLowerCase());
  const change: Partial<AuditLogRow> = {
    actorId: actedAsUser ? erased.pseudonym : row.actorId,
    resourceId: scrubText(row.resourceId, erased),
    metadata: scrubText(row.metadata, erased),
  };
  // The account's own address and device; an administrator's IP on an entry about the account is theirs.
  if (actedAsUser || namedByEmail) Object.assign(change, { actorEmail: '', ipAddress: '', userAgent: '' });
  return change;
}

/**
 * Rewrites every entry that names the account: as actor, as the resource, by its address (a failed sign-in
 * names only the address it tried) or inside the metadata. The metadata is a JSON text without an index, so
 * this reads the table in id order in bounded batches; it runs once per erasure, in the caller's transaction.
 */
export async function pseudonymiseAuditEntries(em: EntityManager, erased: ErasedIdentity): Promise<number> {
  const identifiers = erased.identifiers.filter(Boolean);
  const naming = [
    { actorId: erased.userId },
    { resourceId: erased.userId },
    { metadata: { $like: `%${erased.userId}%` } },
    ...identifiers.flatMap((id) => [{ actorEmail: id }, { metadata: { $like: `%${id}%` } }]),
  ];
  let after = '';
  let rewritten = 0;
  for (;;) {
    const rows = await em.find(AuditLog, { $and: [{ id: { $gt: after } }, { $or: naming }] }, { orderBy: { id: 'asc' }, limit: BATCH, disableIdentityMap: true });
    for (const row of rows) {
      await em.nativeUpdate(AuditLog, { id: row.id }, scrubbed(row, { ...erased, identifiers }));
      rewritten++;
    }
    if (rows.length < BATCH) return rewritten;
    after = rows[rows.length - 1]!.id;
  }
}
