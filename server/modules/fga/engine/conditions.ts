/**
 * Conditional tuples (OpenFGA ABAC: `[user with cond]`, a CEL expression over typed parameters). The
 * service specification does not require them (OpenFGA's abac_tests.yaml cases run as a stretch); the engine
 * evaluates the CEL subset of cel-parse.ts with OpenFGA's rules:
 *
 * - the parameters come from the request context overlaid by the tuple's own context (the tuple wins);
 * - a value that does not convert to its declared type, a missing parameter, or an expression outside
 *   the subset is an evaluation error (OpenFGA validation error 2000);
 * - a tuple whose condition errors does not grant; when every candidate tuple of a lookup errored and
 *   none granted, the lookup answers the error (OpenFGA's condition-filtered iterator), so a union can
 *   still be allowed by another branch.
 */
import { AppError } from '../../../kernel/errors.ts';
import type { AuthorizationModel, TupleKey } from '../types.ts';
import { parseCel, type Expr } from './cel-parse.ts';
import { evaluate } from './cel-eval.ts';
import { toCelValue } from './cel-values.ts';

export type RequestContext = Record<string, unknown>;

const FGA_VALIDATION_ERROR = 2000;

interface ConditionDefinition {
  expression?: string;
  parameters?: Record<string, { type_name?: string; generic_types?: unknown[] }>;
}

interface Compiled {
  expr?: Expr;
  parseError?: string;
  parameters: Record<string, { type_name?: string }>;
}

const compiledByModel = new WeakMap<AuthorizationModel, Map<string, Compiled>>();

function compiled(model: AuthorizationModel, name: string): Compiled | undefined {
  let byName = compiledByModel.get(model);
  if (!byName) compiledByModel.set(model, (byName = new Map()));
  let entry = byName.get(name);
  if (!entry) {
    const definition = (model.conditions ?? {})[name] as ConditionDefinition | undefined;
    if (!definition) return undefined;
    entry = { parameters: definition.parameters ?? {} };
    try {
      entry.expr = parseCel(definition.expression ?? '');
    } catch (err) {
      entry.parseError = (err as Error).message;
    }
    byName.set(name, entry);
  }
  return entry;
}

function evaluationError(name: string, reason: string): AppError {
  return new AppError('invalid_argument', `failed to evaluate relationship condition '${name}': ${reason}`, { fgaCode: FGA_VALIDATION_ERROR });
}

/** Whether the tuple counts for this request; throws an invalid_argument AppError when it cannot tell. */
export function conditionMet(model: AuthorizationModel, tuple: TupleKey, context: RequestContext | undefined): boolean {
  const name = tuple.condition?.name;
  if (!name) return true;
  const condition = compiled(model, name);
  if (!condition) throw evaluationError(name, 'condition was not found');
  if (!condition.expr) throw evaluationError(name, `the expression is outside the supported CEL subset (${condition.parseError})`);
  const merged: Record<string, unknown> = { ...(context ?? {}), ...(tuple.condition?.context ?? {}) };
  const vars = new Map<string, unknown>();
  const missing: string[] = [];
  for (const [parameter, type] of Object.entries(condition.parameters)) {
    if (!Object.hasOwn(merged, parameter)) {
      missing.push(parameter);
      continue;
    }
    try {
      vars.set(parameter, toCelValue(merged[parameter], type));
    } catch (err) {
      throw evaluationError(name, `failed to convert context parameter '${parameter}': ${(err as Error).message}`);
    }
  }
  if (missing.length > 0) {
    throw evaluationError(name, `tuple '${tuple.object}#${tuple.relation}@${tuple.user}' is missing context parameters '${missing.sort().join(', ')}'`);
  }
  let result: unknown;
  try {
    result = evaluate(condition.expr, vars);
  } catch (err) {
    throw evaluationError(name, (err as Error).message);
  }
  if (typeof result !== 'boolean') throw evaluationError(name, 'the expression did not answer a bool');
  return result;
}

/**
 * The tuples whose condition is met. `error` is set only when none is met and at least one could not be
 * evaluated (the caller answers it unless another branch decides).
 */
export function tuplesMet(
  model: AuthorizationModel,
  tuples: readonly TupleKey[],
  context: RequestContext | undefined,
): { met: TupleKey[]; error?: unknown } {
  const met: TupleKey[] = [];
  let error: unknown;
  for (const tuple of tuples) {
    try {
      if (conditionMet(model, tuple, context)) met.push(tuple);
    } catch (err) {
      error ??= err;
    }
  }
  return met.length > 0 || error === undefined ? { met } : { met, error };
}
