/**
 * Request validation against the model, with the OpenFGA codes the conformance cases
 * (consolidated_1_1_tests.yaml, `errorCode`) expect:
 *
 * - check and expand: every problem (malformed or undefined object, relation or user) is 2000;
 * - list objects: an undefined object type is 2021, an undefined relation on it 2022, and a malformed or
 *   undefined user (type, or userset relation) 2000;
 * - list users: an undefined object type or filter type is 2021, an undefined relation (on the object
 *   type, or a filter's userset relation) 2022; a malformed object 2000.
 *
 * Contextual tuples are checked separately with validateTuple(model, tuple, {contextual: true}) (2027).
 */
import type { AuthorizationModel } from '../types.ts';
import { FGA_ERROR, fgaError } from './fga-errors.ts';
import { isValidRelationName, parseObject, parseUser } from './identifiers.ts';
import { typeSystemFor, type TypeSystem } from './type-system.ts';

type Model = AuthorizationModel | TypeSystem;

export interface CheckRequestShape {
  user: string;
  relation: string;
  object: string;
}

export interface ListObjectsRequestShape {
  user: string;
  type: string;
  relation: string;
}

export interface UserFilter {
  type: string;
  relation?: string;
}

export interface ListUsersRequestShape {
  object: string;
  relation: string;
  userFilters: readonly UserFilter[];
}

export interface ExpandRequestShape {
  object: string;
  relation: string;
}

const validation = (message: string) => fgaError(FGA_ERROR.validation, message);

function hasRelation(ts: TypeSystem, type: string, relation: unknown): relation is string {
  return typeof relation === 'string' && isValidRelationName(relation) && ts.hasRelation(type, relation);
}

/** A malformed user, or one whose type (or userset relation) the model does not define: 2000. */
function checkUser(ts: TypeSystem, user: unknown): void {
  const parsed = typeof user === 'string' ? parseUser(user) : undefined;
  if (!parsed) throw validation(`invalid 'user' field '${String(user ?? '')}': expected type:id, type:* or type:id#relation`);
  if (!ts.hasType(parsed.type)) throw validation(`invalid 'user' field: type '${parsed.type}' is not defined in the model`);
  if (parsed.relation && !ts.hasRelation(parsed.type, parsed.relation)) {
    throw validation(`invalid 'user' field: relation '${parsed.relation}' is not defined on type '${parsed.type}'`);
  }
}

/** Object and relation of check and expand: every problem is 2000. */
function checkObjectRelation(ts: TypeSystem, object: unknown, relation: unknown): void {
  const parsed = typeof object === 'string' ? parseObject(object) : undefined;
  if (!parsed) throw validation(`invalid 'object' field '${String(object ?? '')}': expected type:id`);
  if (!ts.hasType(parsed.type)) throw validation(`invalid 'object' field: type '${parsed.type}' is not defined in the model`);
  if (!hasRelation(ts, parsed.type, relation)) {
    throw validation(`relation '${String(relation ?? '')}' is not defined on type '${parsed.type}'`);
  }
}

export function validateCheckRequest(model: Model, request: CheckRequestShape): void {
  const ts = typeSystemFor(model);
  checkObjectRelation(ts, request.object, request.relation);
  checkUser(ts, request.user);
}

export function validateExpandRequest(model: Model, request: ExpandRequestShape): void {
  checkObjectRelation(typeSystemFor(model), request.object, request.relation);
}

function typeNotFound(type: unknown): never {
  throw fgaError(FGA_ERROR.typeNotFound, `type '${String(type ?? '')}' is not defined in the model`);
}

function relationNotFound(type: string, relation: unknown): never {
  throw fgaError(FGA_ERROR.relationNotFound, `relation '${String(relation ?? '')}' is not defined on type '${type}'`);
}

export function validateListObjectsRequest(model: Model, request: ListObjectsRequestShape): void {
  const ts = typeSystemFor(model);
  if (typeof request.type !== 'string' || !ts.hasType(request.type)) typeNotFound(request.type);
  if (!hasRelation(ts, request.type, request.relation)) relationNotFound(request.type, request.relation);
  checkUser(ts, request.user);
}

export function validateListUsersRequest(model: Model, request: ListUsersRequestShape): void {
  const ts = typeSystemFor(model);
  const parsed = typeof request.object === 'string' ? parseObject(request.object) : undefined;
  if (!parsed) throw validation(`invalid 'object' field '${String(request.object ?? '')}': expected type:id`);
  if (!ts.hasType(parsed.type)) typeNotFound(parsed.type);
  if (!hasRelation(ts, parsed.type, request.relation)) relationNotFound(parsed.type, request.relation);
  if (!Array.isArray(request.userFilters) || request.userFilters.length === 0) {
    throw validation('at least one user filter (a user type, optionally with a relation) is required');
  }
  for (const filter of request.userFilters) {
    if (!filter || typeof filter.type !== 'string' || !ts.hasType(filter.type)) typeNotFound(filter?.type);
    if (filter.relation !== undefined && filter.relation !== '' && !hasRelation(ts, filter.type, filter.relation)) {
      relationNotFound(filter.type, filter.relation);
    }
  }
}
