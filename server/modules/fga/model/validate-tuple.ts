/**
 * A tuple is written (or passed as a contextual tuple) only when the current model
 * allows it, with OpenFGA's write-validation semantics (ValidateTupleForWrite):
 *
 * 1. the object is `type:id` of a defined type and the relation is defined on that type;
 * 2. the user is `type:id`, `type:*` or `type:id#relation` of a defined type (and relation);
 * 3. the relation is directly assignable (its rewrite contains `this`, the DSL's `[...]`), and a
 *    tupleset relation (`... from <relation>`) takes plain objects only;
 * 4. the user's form is in the relation's type restrictions: `user` for `user:anne`, `user:*` for the
 *    wildcard, `group#member` for `group:eng#member`;
 * 5. conditions: a restriction that exists only `with <condition>` requires that condition; a named
 *    condition must be defined in the model and allowed by the restriction; its context must fit the
 *    condition's parameter types.
 *
 * Failures of 1-4 are invalid_argument with OpenFGA's invalid_tuple code 2027 (contextual tuples too,
 * as the conformance cases expect); failures of 5 carry 2000, as OpenFGA reports conditional tuple errors
 * as validation errors.
 */
import type { AppError } from '../../../kernel/errors.ts';
import type { AuthorizationModel, RelationReference, TupleKey } from '../types.ts';
import { conditionContextProblem } from './condition-context.ts';
import { FGA_ERROR, fgaError, type FgaErrorCode } from './fga-errors.ts';
import { describeTuple, isValidRelationName, parseObject, parseUser, type ParsedUser } from './identifiers.ts';
import { typeSystemFor, type TypeSystem } from './type-system.ts';

export interface ValidateTupleOptions {
  /** Word the message for a contextual tuple (used for one request, never stored). */
  contextual?: boolean;
}

function restrictionText(ref: RelationReference): string {
  const base = ref.wildcard ? `${ref.type}:*` : ref.relation ? `${ref.type}#${ref.relation}` : ref.type;
  return ref.condition ? `${base} with ${ref.condition}` : base;
}

function userFormText(user: ParsedUser): string {
  if (user.wildcard) return `the wildcard ${user.type}:*`;
  if (user.relation) return `the userset ${user.type}#${user.relation}`;
  return `the user type ${user.type}`;
}

function matchesUser(ref: RelationReference, user: ParsedUser): boolean {
  if (ref.type !== user.type) return false;
  if (user.wildcard) return ref.wildcard !== undefined;
  if (user.relation) return ref.relation === user.relation;
  return !ref.relation && ref.wildcard === undefined;
}

/** The reason `tuple` is not allowed by the model, with its OpenFGA code; undefined when it is allowed. */
export function tupleProblem(model: AuthorizationModel | TypeSystem, tuple: TupleKey): { code: FgaErrorCode; reason: string } | undefined {
  const ts = typeSystemFor(model);
  const invalid = (reason: string) => ({ code: FGA_ERROR.invalidTuple, reason });
  if (!tuple || typeof tuple !== 'object') return invalid('a tuple is an object with user, relation and object');
  const { user, relation, object } = tuple;
  if (typeof user !== 'string' || typeof relation !== 'string' || typeof object !== 'string' || !user || !relation || !object) {
    return invalid('the user, relation and object are required strings');
  }
  const parsedObject = parseObject(object);
  if (!parsedObject) return invalid(`the object '${object}' is not of the form type:id`);
  if (!ts.hasType(parsedObject.type)) return invalid(`type '${parsedObject.type}' is not defined in the model`);
  if (!isValidRelationName(relation) || !ts.hasRelation(parsedObject.type, relation)) {
    return invalid(`relation '${relation}' is not defined on type '${parsedObject.type}'`);
  }
  const parsedUser = parseUser(user);
  if (!parsedUser) return invalid(`the user '${user}' is not of the form type:id, type:* or type:id#relation`);
  if (!ts.hasType(parsedUser.type)) return invalid(`type '${parsedUser.type}' of the user is not defined in the model`);
  if (parsedUser.relation && !ts.hasRelation(parsedUser.type, parsedUser.relation)) {
    return invalid(`relation '${parsedUser.relation}' of the user is not defined on type '${parsedUser.type}'`);
  }
  const target = `${parsedObject.type}#${relation}`;
  if (!ts.isDirectlyAssignable(parsedObject.type, relation)) {
    return invalid(`${target} cannot be assigned directly: its definition has no [...] type restriction`);
  }
  if (ts.isTuplesetRelation(parsedObject.type, relation) && (parsedUser.wildcard || parsedUser.relation)) {
    return invalid(`${target} is used in a tuple-to-userset ('from ${relation}') and takes plain objects only, not ${userFormText(parsedUser)}`);
  }
  const references = ts.directlyRelatedTypes(parsedObject.type, relation);
  const matching = references.filter((ref) => matchesUser(ref, parsedUser));
  if (matching.length === 0) {
    const allowed = references.map(restrictionText).join(', ') || 'nothing';
    return invalid(`${userFormText(parsedUser)} is not allowed on ${target} (allowed: ${allowed})`);
  }
  return conditionProblem(ts, tuple, target, matching);
}

function conditionProblem(ts: TypeSystem, tuple: TupleKey, target: string, matching: readonly RelationReference[]): { code: FgaErrorCode; reason: string } | undefined {
  const invalid = (reason: string) => ({ code: FGA_ERROR.validation, reason });
  const name = tuple.condition?.name;
  if (tuple.condition !== undefined && tuple.condition !== null && typeof name !== 'string') {
    return invalid('a condition is an object with a name');
  }
  if (!name) {
    if (matching.every((ref) => ref.condition)) {
      const names = [...new Set(matching.map((ref) => ref.condition))].join(', ');
      return invalid(`condition is missing: ${target} allows this user only with condition ${names}`);
    }
    return undefined;
  }
  if (!ts.hasCondition(name)) return invalid(`condition '${name}' is not defined in the model`);
  if (!matching.some((ref) => ref.condition === name)) return invalid(`condition '${name}' is not allowed for this user on ${target}`);
  const problem = conditionContextProblem(name, ts.condition(name), tuple.condition?.context);
  return problem ? invalid(problem) : undefined;
}

/** Throws AppError invalid_argument {fgaCode} naming the tuple when the model does not allow it. */
export function validateTuple(model: AuthorizationModel | TypeSystem, tuple: TupleKey, options: ValidateTupleOptions = {}): void {
  const problem = tupleProblem(model, tuple);
  if (!problem) return;
  throw invalidTupleError(tuple, problem, options);
}

function invalidTupleError(tuple: TupleKey, problem: { code: FgaErrorCode; reason: string }, options: ValidateTupleOptions): AppError {
  const what = options.contextual ? 'invalid contextual tuple' : 'invalid tuple';
  const shown = tuple && typeof tuple === 'object' ? ` '${describeTuple(tuple)}'` : '';
  return fgaError(problem.code, `${what}${shown}: ${problem.reason}`);
}
