/**
 * Request and response objects of the FGA operations (docs/api-overview.md#resources-and-fields, "Permission types", docs/operations.md
 * `check_permissions` / `list_permissions`, docs/operations.md `/v1/admin/fga/*`; docs/limits.md limits).
 */
import { s } from '../../ops/schema.ts';
import { MAX_MODEL_DSL_BYTES } from './model/model-limits.ts';

/** docs/limits.md: minimum 1, maximum 100 checks per check_permissions call. */
export const MAX_CHECKS = 100;
/** docs/limits.md: list_permissions answers at most 1,000 entries, then `truncated` is true. */
export const MAX_PERMISSIONS = 1000;
/** A bound on one write or delete batch, so one request cannot hold a store transaction without end. */
export const MAX_TUPLES_PER_WRITE = 1000;
/** Contextual tuples per check (OpenFGA's own bound). */
export const MAX_CONTEXTUAL_TUPLES = 100;
/** The parser's own bound (UTF-16 units never outnumber UTF-8 bytes; parseModel checks the bytes). */
const MAX_DSL_LENGTH = MAX_MODEL_DSL_BYTES;

const id = (description: string) => s.string({ minLength: 1, maxLength: 512, description });

/** docs/api-overview.md#resources-and-fields: `user` is `type:id`, `type:*` or `type:id#relation`; `object` is `type:id`. */
export const Tuple = s.object('Tuple', {
  user: id('subject: type:id, type:* or type:id#relation'),
  relation: id('relation name'),
  object: id('object: type:id'),
});

/** docs/api-overview.md#resources-and-fields: one check; contextual tuples apply to this check only and are never stored. */
export const PermissionCheckInput = s.object('PermissionCheckInput', {
  relation: id('relation name'),
  object: id('object: type:id'),
  contextual_tuples: s.optional(s.list(Tuple, { maxItems: MAX_CONTEXTUAL_TUPLES })),
});

export const CheckPermissionsRequest = s.object('CheckPermissionsRequest', {
  // The bounds are checked by the handler, so that 0 and 101 get the message of docs/limits.md on every protocol.
  // docs/limits.md: minimum 1, maximum 100; refused by the pipeline's input check on every protocol alike.
  checks: s.list(PermissionCheckInput, { minItems: 1, maxItems: MAX_CHECKS }),
  user: s.optional(s.string({ maxLength: 512, description: 'explicit subject; super-admins, or the caller itself' })),
});

export const PermissionCheckResult = s.object('PermissionCheckResult', {
  relation: s.string(),
  object: s.string(),
  allowed: s.boolean(),
});

export const CheckPermissionsResponse = s.object('CheckPermissionsResponse', {
  results: s.list(PermissionCheckResult),
});

export const ListPermissionsRequest = s.object('ListPermissionsRequest', {
  relation: s.optional(s.string({ maxLength: 512 })),
  object_type: s.optional(s.string({ maxLength: 512 })),
  user: s.optional(s.string({ maxLength: 512, description: 'explicit subject; super-admins, or the caller itself' })),
});

export const Permission = s.object('Permission', {
  object: s.string(),
  relation: s.string(),
});

export const ListPermissionsResponse = s.object('ListPermissionsResponse', {
  objects: s.list(s.string()),
  permissions: s.list(Permission),
  truncated: s.boolean(),
});

/** The `{relation, object}` pairs of `required_relations` (docs/operations.md#session: session, validate_*). */
export const RequiredRelation = s.object('RequiredRelation', {
  relation: id('relation name'),
  object: id('object: type:id'),
});

export const FgaModel = s.object('FgaModel', {
  id: s.string({ description: 'model version id; empty on an empty store' }),
  dsl: s.string({ description: 'the model in the OpenFGA DSL; empty on an empty store' }),
});

export const FgaWriteModelRequest = s.object('FgaWriteModelRequest', {
  dsl: s.string({ minLength: 1, maxLength: MAX_DSL_LENGTH, multiline: true, description: 'OpenFGA DSL, schema 1.1' }),
});

export const FgaTuplesRequest = s.object('FgaTuplesRequest', {
  tuples: s.list(Tuple, { minItems: 1, maxItems: MAX_TUPLES_PER_WRITE }),
});

export const FgaReadTuplesRequest = s.object('FgaReadTuplesRequest', {
  user: s.optional(s.string({ maxLength: 512 })),
  relation: s.optional(s.string({ maxLength: 512 })),
  object: s.optional(s.string({ maxLength: 512, description: 'type:id, or type: for every object of a type' })),
  page_size: s.optional(s.int({ description: 'tuples per page: 1 to 100; absent or 0 means 50' })),
  continuation_token: s.optional(s.string({ maxLength: 4096 })),
});

export const FgaReadTuplesResponse = s.object('FgaReadTuplesResponse', {
  tuples: s.list(Tuple),
  continuation_token: s.optional(s.string()),
});

export const FgaListUsersRequest = s.object('FgaListUsersRequest', {
  object: id('object: type:id'),
  relation: id('relation name'),
  user_type: id('type of the users to list: type, or type#relation for usersets'),
});

export const FgaListUsersResponse = s.object('FgaListUsersResponse', {
  users: s.list(s.string()),
});

export const FgaExpandRequest = s.object('FgaExpandRequest', {
  relation: id('relation name'),
  object: id('object: type:id'),
});

export const FgaExpandResponse = s.object('FgaExpandResponse', {
  tree: s.string({ description: 'the userset tree as a JSON string' }),
});
