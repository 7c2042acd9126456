/**
 * The input and answer of `_import_users` (docs/importing-users.md). The lines travel as one string field
 * over GraphQL and gRPC, bounded so that the request stays under the 1 MiB HTTP body limit with JSON's
 * escaping; over REST the same operation also takes them as a streamed application/x-ndjson body, without
 * that bound (import-users-stream.ts in the HTTP transport).
 */
import { s } from '../../../ops/schema.ts';

/** Characters of the `lines` field: 512 Ki, about 2,000 users of 250 characters each. */
export const MAX_LINES_FIELD = 512 * 1024;

export const FirebaseScryptInput = s.object('FirebaseScryptParameters', {
  signer_key: s.string({ maxLength: 256, description: 'base64_signer_key of the Firebase project\'s password hash parameters' }),
  salt_separator: s.string({ maxLength: 64, description: 'base64_salt_separator (often Bw==)' }),
  rounds: s.int({ minimum: 1, maximum: 8, description: 'rounds (scrypt r), 8 in Firebase projects' }),
  mem_cost: s.int({ minimum: 1, maximum: 14, description: 'mem_cost (scrypt N = 2^mem_cost), 14 in Firebase projects' }),
});

export const ImportUsersRequest = s.object('ImportUsersRequest', {
  lines: s.optional(
    s.string({
      maxLength: MAX_LINES_FIELD,
      multiline: true,
      description: 'users as JSON lines, one user object a line (docs/importing-users.md); larger files stream over REST as application/x-ndjson',
    }),
  ),
  firebase_scrypt: s.optional(FirebaseScryptInput),
});

export const ImportLineError = s.object('ImportLineError', {
  line: s.int({ description: 'the line number, from 1' }),
  reason: s.string(),
});

export const ImportUsersResponse = s.object('ImportUsersResponse', {
  message: s.string(),
  lines: s.int({ description: 'lines read, blank ones included' }),
  created: s.int(),
  unchanged: s.int({ description: 'lines that matched an existing account (by external_id, email or phone number), which the import leaves as it is' }),
  failed: s.int(),
  errors: s.list(ImportLineError),
  errors_truncated: s.boolean({ description: 'true when more lines failed than errors lists (the first 1,000)' }),
});
