/**
 * An authorization model (docs/operations.md) is OpenFGA DSL (schema 1.1), parsed and checked with OpenFGA's
 * own maintained tooling, @openfga/syntax-transformer: `validateDSL` applies OpenFGA's semantic rules
 * (undefined types or relations, tuple-to-userset over a non-direct relation or a relation no tupleset
 * type has, relations with no entry point such as unresolvable cycles, reserved names, duplicate types,
 * undefined or unused conditions), then `transformDSLToJSONObject` yields the model JSON the engine reads.
 * Each condition's CEL expression is then compiled as the engine runs it (engine/conditions.ts): one that
 * does not parse, names an undeclared parameter, misapplies a function or does not answer a bool makes
 * the model invalid, as OpenFGA refuses it when the model is written.
 *
 * Every problem becomes one invalid_argument AppError listing all of them with 1-based line and column,
 * carrying OpenFGA's code: 2000 for syntax errors, 2057 for an unsupported schema version, 2056 for an
 * invalid model (a condition that does not compile included).
 */
import { errors as fgaErrors, transformer, validator } from '@openfga/syntax-transformer';
import { AppError } from '../../../kernel/errors.ts';
import type { AuthorizationModel, RelationReference, TypeDefinition } from '../types.ts';
import { FGA_ERROR, fgaError, type FgaErrorCode } from './fga-errors.ts';
import { MAX_RELATION_LENGTH, MAX_TYPE_LENGTH } from './identifiers.ts';
import { useSllPrediction } from '../../../../common/fga-sll-prediction.ts';
import { MAX_MODEL_DSL_BYTES, MAX_MODEL_NESTING } from './model-limits.ts';
import { conditionProblems } from '../engine/conditions.ts';

useSllPrediction();

export const SUPPORTED_SCHEMA_VERSION = '1.1';
export { MAX_MODEL_DSL_BYTES };

/** Problems named in one error; the rest are counted, so a reply stays a few KB whatever the model. */
export const MAX_REPORTED_PROBLEMS = 10;

const SCHEMA_ERROR_TYPES = new Set<string>(['schema-version-required', 'schema-version-unsupported', 'invalid-schema']);

interface Problem {
  message: string;
  line?: number;
  column?: number;
}

function describe(problems: readonly Problem[]): string {
  const items = problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => (p.line === undefined ? p.message : `line ${p.line}${p.column === undefined ? '' : `, column ${p.column}`}: ${p.message}`));
  if (problems.length === 1) return items[0]!;
  const more = problems.length - items.length;
  return `${problems.length} problems: ${items.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

function invalid(code: FgaErrorCode, problems: readonly Problem[]): AppError {
  const what = code === FGA_ERROR.validation ? 'syntax error in the authorization model' : 'invalid authorization model';
  return fgaError(code, `${what}: ${describe(problems)}`);
}

/** A single problem's text is capped too: the parser quotes the offending input, which may be the whole line. */
const MAX_PROBLEM_LENGTH = 200;

/** The tool's errors are zero-based; people count lines and columns from one. */
function problemOf(err: { msg?: string; message?: string; line?: { start: number }; column?: { start: number } }): Problem {
  let message = (err.msg ?? err.message ?? 'unknown problem').trim().replace(/\.$/, '');
  if (message.length > MAX_PROBLEM_LENGTH) message = `${message.slice(0, MAX_PROBLEM_LENGTH)}...`;
  return { message, line: err.line ? err.line.start + 1 : undefined, column: err.column ? err.column.start + 1 : undefined };
}

/** Copies the model with conditions removed from type restrictions (see validateWithoutConditions). */
function withoutRestrictionConditions(model: AuthorizationModel): AuthorizationModel {
  const copy = structuredClone(model);
  for (const typeDef of copy.type_definitions ?? []) {
    for (const meta of Object.values(typeDef.metadata?.relations ?? {})) {
      if (!meta.directly_related_user_types) continue;
      const seen = new Set<string>();
      meta.directly_related_user_types = meta.directly_related_user_types.filter((ref) => {
        const key = `${ref.type}|${ref.relation ?? ''}|${ref.wildcard ? '*' : ''}`;
        if (seen.has(key)) return false;
        seen.add(key);
        delete ref.condition;
        return true;
      });
    }
  }
  delete copy.conditions;
  return copy;
}

function restrictions(typeDef: TypeDefinition): RelationReference[] {
  return Object.values(typeDef.metadata?.relations ?? {}).flatMap((meta) => meta.directly_related_user_types ?? []);
}

/**
 * syntax-transformer 0.2.2's entry-point check crashes (TypeError) on a tuple-to-userset whose tupleset
 * restriction carries a condition (`define parent: [folder with cond]`). Then the same rules are applied
 * to the model with restriction conditions set aside, and conditions are checked here: each one named
 * by a restriction must be defined.
 */
function validateWithoutConditions(model: AuthorizationModel): void {
  validator.validateJSON(withoutRestrictionConditions(model) as never);
  const defined = new Set(Object.keys(model.conditions ?? {}));
  const problems: Problem[] = [];
  for (const typeDef of model.type_definitions ?? []) {
    for (const ref of restrictions(typeDef)) {
      if (ref.condition && !defined.has(ref.condition)) {
        problems.push({ message: `\`${ref.condition}\` is not a defined condition in the model (type \`${typeDef.type}\`).` });
      }
    }
  }
  if (problems.length > 0) throw invalid(FGA_ERROR.invalidModel, problems);
}

function toAppError(err: unknown): AppError | undefined {
  if (err instanceof fgaErrors.DSLSyntaxError) {
    return invalid(FGA_ERROR.validation, err.errors.map(problemOf));
  }
  if (err instanceof fgaErrors.ModelValidationError) {
    const schemaProblem = err.errors.some((e) => SCHEMA_ERROR_TYPES.has(String(e.metadata?.errorType)));
    return invalid(schemaProblem ? FGA_ERROR.unsupportedSchemaVersion : FGA_ERROR.invalidModel, err.errors.map(problemOf));
  }
  return undefined;
}

/** Server-side limits of OpenFGA that the DSL grammar does not enforce. */
function checkShape(model: AuthorizationModel): void {
  if (model.schema_version !== SUPPORTED_SCHEMA_VERSION) {
    throw invalid(FGA_ERROR.unsupportedSchemaVersion, [
      { message: `schema ${model.schema_version} is not supported; use schema ${SUPPORTED_SCHEMA_VERSION}` },
    ]);
  }
  if (model.type_definitions.length === 0) {
    throw invalid(FGA_ERROR.invalidModel, [{ message: 'the model defines no types' }]);
  }
  const problems: Problem[] = [];
  for (const typeDef of model.type_definitions) {
    if (typeDef.type.length > MAX_TYPE_LENGTH) problems.push({ message: `the type name \`${typeDef.type.slice(0, 40)}...\` is longer than ${MAX_TYPE_LENGTH} characters` });
    for (const relation of Object.keys(typeDef.relations ?? {})) {
      if (relation.length > MAX_RELATION_LENGTH) {
        problems.push({ message: `the relation name \`${relation}\` on \`${typeDef.type}\` is longer than ${MAX_RELATION_LENGTH} characters` });
      }
    }
  }
  if (problems.length > 0) throw invalid(FGA_ERROR.invalidModel, problems);
}

/** One linear pass over the text: parentheses deeper than MAX_MODEL_NESTING are refused before parsing. */
function checkNesting(dsl: string): void {
  let depth = 0;
  let line = 1;
  let column = 0;
  for (let i = 0; i < dsl.length; i += 1) {
    const code = dsl.charCodeAt(i);
    column += 1;
    if (code === 10) {
      line += 1;
      column = 0;
    } else if (code === 40 && ++depth > MAX_MODEL_NESTING) {
      throw invalid(FGA_ERROR.invalidModel, [{ line, column, message: `parentheses nest deeper than ${MAX_MODEL_NESTING} levels` }]);
    } else if (code === 41 && depth > 0) {
      depth -= 1;
    }
  }
}

/**
 * Problems past this many are reported without line numbers: the validator finds a problem's line by
 * scanning the model's lines from the top, once per problem, which is quadratic in a model full of
 * problems (a 43 KB model of undefined types took 2.4 s). Up to this many, the scan is cheap.
 */
const LINE_LOOKUP_LIMIT = 20;

/**
 * OpenFGA's semantic rules (validator.validateDSL is the parse plus validateJSON with the text for line
 * numbers). The rules first run on the parsed model alone, which is linear; only when the problems are
 * few are they run again with the text to place them. Returns true when the validator itself crashed.
 */
function validateSemantics(model: AuthorizationModel, dsl: string): boolean {
  let first: InstanceType<typeof fgaErrors.ModelValidationError>;
  try {
    validator.validateJSON(structuredClone(model) as never);
    return false;
  } catch (err) {
    if (!(err instanceof fgaErrors.ModelValidationError)) return true; // see validateWithoutConditions
    first = err;
  }
  if (first.errors.length <= LINE_LOOKUP_LIMIT) {
    try {
      validator.validateJSON(structuredClone(model) as never, {}, dsl);
    } catch (err) {
      const placed = toAppError(err);
      if (placed) throw placed;
    }
  }
  throw toAppError(first)!;
}

/**
 * Parses and validates OpenFGA DSL into the model JSON. Throws AppError invalid_argument with
 * detail {fgaCode} (2000 syntax, 2056 invalid model, 2057 schema version) naming every problem.
 */
export function parseModel(dsl: string): AuthorizationModel {
  if (typeof dsl !== 'string' || dsl.trim() === '') {
    throw invalid(FGA_ERROR.invalidModel, [{ message: 'the model is empty; it starts with `model` and `schema 1.1`, then the types' }]);
  }
  if (Buffer.byteLength(dsl, 'utf8') > MAX_MODEL_DSL_BYTES) {
    throw invalid(FGA_ERROR.invalidModel, [{ message: `the model is larger than ${MAX_MODEL_DSL_BYTES} bytes` }]);
  }
  checkNesting(dsl);
  let model: AuthorizationModel;
  try {
    model = transformer.transformDSLToJSONObject(dsl) as unknown as AuthorizationModel;
  } catch (err) {
    throw toAppError(err) ?? invalid(FGA_ERROR.invalidModel, [{ message: (err as Error).message ?? String(err) }]);
  }
  const crashed = validateSemantics(model, dsl);
  model = { ...model, type_definitions: model.type_definitions ?? [] };
  checkShape(model);
  if (crashed) {
    try {
      validateWithoutConditions(model);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw toAppError(err) ?? invalid(FGA_ERROR.invalidModel, [{ message: `the model could not be validated (${reason})` }]);
    }
  }
  const badConditions = conditionProblems(model);
  if (badConditions.length > 0) throw invalid(FGA_ERROR.invalidModel, badConditions.map((message) => ({ message })));
  return model;
}
