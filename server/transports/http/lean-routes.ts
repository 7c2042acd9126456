/**
 * REST routes served by a lean handler instead of the generic one (rest-routes.ts), by operation name.
 * Each answers exactly what the generic route answers for every input, hands anything unusual to it, and
 * has a test that sends the same inputs to both.
 */
import type { Deps } from '../../kernel/deps.ts';
import type { AnyOperation } from '../../ops/define.ts';
import type { RestHandler } from './rest-answers.ts';
import { leanValidateHandler } from './validate-route.ts';
import { leanImportUsersHandler } from './import-users-route.ts';

export type LeanRestHandler = (deps: Deps, op: AnyOperation, generic: RestHandler) => RestHandler;

export const LEAN_REST_HANDLERS: Readonly<Record<string, LeanRestHandler>> = {
  validate_jwt_token: leanValidateHandler,
  // A streamed application/x-ndjson body; a JSON one goes to the generic route.
  import_users: leanImportUsersHandler,
};
