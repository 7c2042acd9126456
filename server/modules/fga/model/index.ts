/** FGA models: DSL parsing and validation, the TypeSystem lookups, tuple and request validation. */
export { parseModel, SUPPORTED_SCHEMA_VERSION, MAX_MODEL_DSL_BYTES } from './parse-model.ts';
export { TypeSystem, typeSystemFor, rewriteContainsThis } from './type-system.ts';
export { validateTuple, tupleProblem, type ValidateTupleOptions } from './validate-tuple.ts';
export {
  validateCheckRequest,
  validateExpandRequest,
  validateListObjectsRequest,
  validateListUsersRequest,
  type CheckRequestShape,
  type ExpandRequestShape,
  type ListObjectsRequestShape,
  type ListUsersRequestShape,
  type UserFilter,
} from './validate-requests.ts';
export { FGA_ERROR, fgaError, fgaCodeOf, type FgaErrorCode, type FgaErrorDetail } from './fga-errors.ts';
export {
  parseObject,
  parseUser,
  formatUser,
  describeTuple,
  isValidTypeName,
  isValidRelationName,
  WILDCARD,
  MAX_OBJECT_LENGTH,
  MAX_USER_LENGTH,
  MAX_RELATION_LENGTH,
  MAX_TYPE_LENGTH,
  type ParsedObject,
  type ParsedUser,
} from './identifiers.ts';
export { fitsParameterType, conditionContextProblem } from './condition-context.ts';
