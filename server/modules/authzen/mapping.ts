/**
 * AuthZEN entities as FGA terms (docs/authzen.md#mapping): a Subject `{type, id}` is the FGA user
 * `type:id`, an Action's `name` the relation, a Resource `{type, id}` the object `type:id`, and the request
 * `context` the condition context of the check (OpenFGA's check `context`). `properties` are not read: the
 * relationship engine decides from stored tuples, not from attributes the caller asserts. The identifier
 * forms are FGA's (fga/model/identifiers.ts): an id holds no `:`, `#` or whitespace; a malformed one is the
 * caller's mistake, named by its field.
 */
import { AppError } from '../../kernel/errors.ts';
import { isValidRelationName, isValidTypeName, parseObject, parseUser } from '../fga/index.ts';

export interface EntityInput {
  type: string;
  id?: string;
  properties?: Record<string, unknown>;
}

export interface ActionInput {
  name: string;
  properties?: Record<string, unknown>;
}

/** One AuthZEN question as FGA asks it. */
export interface FgaQuestion {
  user: string;
  relation: string;
  object: string;
  context?: Record<string, unknown>;
}

const ID_RULE = 'FGA ids hold no ":", "#" or whitespace';

/** The entity's type, checked as an FGA type name. */
export function entityType(entity: EntityInput, where: string): string {
  if (!isValidTypeName(entity.type)) throw AppError.invalid(`${where}.type: '${entity.type.slice(0, 64)}' is not an FGA type name (no ":", "#", "@" or whitespace)`);
  return entity.type;
}

function entityId(entity: EntityInput, where: string): string {
  if (entity.id === undefined || entity.id === '') throw AppError.invalid(`${where}.id: is required`);
  return entity.id;
}

/** The FGA user of a Subject: `type:id`, never a wildcard or a userset. */
export function fgaUser(subject: EntityInput, where = 'subject'): string {
  const user = `${entityType(subject, where)}:${entityId(subject, where)}`;
  const parsed = parseUser(user);
  if (!parsed || parsed.wildcard || parsed.relation) throw AppError.invalid(`${where}.id: '${subject.id!.slice(0, 64)}' cannot name an FGA user (${ID_RULE}, and "*" names no one)`);
  return user;
}

/** The FGA object of a Resource: `type:id`. */
export function fgaObject(resource: EntityInput, where = 'resource'): string {
  const object = `${entityType(resource, where)}:${entityId(resource, where)}`;
  if (!parseObject(object)) throw AppError.invalid(`${where}.id: '${resource.id!.slice(0, 64)}' cannot name an FGA object (${ID_RULE}, and "*" names no one)`);
  return object;
}

/** The FGA relation of an Action. */
export function fgaRelation(action: ActionInput, where = 'action'): string {
  if (!isValidRelationName(action.name)) throw AppError.invalid(`${where}.name: '${action.name.slice(0, 64)}' is not an FGA relation name (1 to 50 characters, no ":", "#", "@" or whitespace)`);
  return action.name;
}

/** The condition context: the request's `context`, left out when empty so checks share the request's cache. */
export function conditionContext(context: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return context && Object.keys(context).length > 0 ? context : undefined;
}

/** An evaluation (AuthZEN 1.0 section 6.1) as one FGA check; `prefix` names it in a batch (`evaluations[2].`). */
export function fgaQuestion(
  request: { subject: EntityInput; action: ActionInput; resource: EntityInput; context?: Record<string, unknown> },
  prefix = '',
): FgaQuestion {
  return {
    user: fgaUser(request.subject, `${prefix}subject`),
    relation: fgaRelation(request.action, `${prefix}action`),
    object: fgaObject(request.resource, `${prefix}resource`),
    context: conditionContext(request.context),
  };
}
