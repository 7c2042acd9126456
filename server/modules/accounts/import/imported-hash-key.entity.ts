import { defineEntity, p } from '@mikro-orm/core';

/**
 * The password hash parameters of a system users were imported from, shared by all of its users' stored
 * hashes, which name the row by id (passwords/imported-hash.ts: `$firebase-scrypt$k=<id>$...`). Today one
 * kind: a Firebase project's modified scrypt parameters, whose signer key is a secret (whoever holds it and
 * a hash can mount an offline guessing attack), so the whole parameter set is sealed with the at-rest key
 * (deps.sealer, --encryption-key; docs/importing-users.md#firebase). Never returned by any operation.
 */
export const ImportedHashKey = defineEntity({
  name: 'ImportedHashKey',
  tableName: 'imported_hash_keys',
  properties: {
    /** Derived from the parameters (import-hash-keys.ts), so importing the same project twice finds one row. */
    id: p.string().primary().length(64),
    algorithm: p.string().length(32),
    paramsSealed: p.text(),
    createdAt: p.datetime(),
  },
});

export type ImportedHashKeyRow = InstanceType<typeof ImportedHashKey.class>;
