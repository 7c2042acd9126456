/**
 * The FGA module: operations for the registry, the service buildApp() puts in Deps, and the
 * `required_relations` check the account operations use. model/, store/ and engine/ export their own parts.
 */
import { defineModule } from '../manifest.ts';
import { fgaOperations } from './fga.ops.ts';
import { FGA_ENTITIES } from './store/create-fga-store.ts';

export { fgaOperations } from './fga.ops.ts';
export { createFgaService, requireFga, FGA_OFF_MESSAGE, type FgaService, type LoadedModel } from './fga.service.ts';
export { requireRelations, subjectOfClaims, type RelationPair } from './required-relations.ts';
export { RequiredRelation, MAX_CHECKS } from './fga.schema.ts';
// What the AuthZEN PDP (modules/authzen) evaluates through: one check for a subject, and the identifier forms.
export { checkForSubject, type CheckRun, type PermissionCheck } from './permission-checks.ts';
export type { Subject } from './subject.ts';
export { isValidTypeName, isValidRelationName, parseObject, parseUser } from './model/identifiers.ts';

export const fgaModule = defineModule({ name: 'fga', entities: FGA_ENTITIES, operations: fgaOperations });
