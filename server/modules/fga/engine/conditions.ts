/**
 * Conditional tuples (OpenFGA ABAC: `[user with cond]`, a CEL expression over typed parameters). The
 * released API does not need them (OpenFGA's abac_tests.yaml cases run as a stretch); the engine
 * evaluates them with @bufbuild/cel (cel-program.ts) under OpenFGA's rules:
 *
 * - the parameters come from the request context overlaid by the tuple's own context (the tuple wins);
 * - a value that does not convert to its declared type, a missing parameter, an expression that does not
 *   compile, or an evaluation error is an evaluation error (OpenFGA validation error 2000);
 * - a tuple whose condition errors does not grant; when every candidate tuple of a lookup errored and
 *   none granted, the lookup answers the error (OpenFGA's condition-filtered iterator), so a union can
 *   still be allowed by another branch.
 *
 * Each condition is compiled once per model (the model object is the cache key), on first use or when the
 * model is validated at write (conditionProblems).
 */
import type { CelInput } from '@bufbuild/cel';
import { AppError } from '../../../kernel/errors.ts';
import type { AuthorizationModel, TupleKey } from '../types.ts';
import type { CompiledCondition } from './cel-program.ts';
import type { ParameterType } from './cel-context.ts';
import { celRuntime } from './cel-loader.ts';

export type RequestContext = Record<string, unknown>;

const FGA_VALIDATION_ERROR = 2000;

interface ConditionDefinition {
  expression?: string;
  parameters?: Record<string, ParameterType>;
}

interface Compiled {
  program?: CompiledCondition;
  compileError?: string;
  parameters: Record<string, ParameterType>;
}

const compiledByModel = new WeakMap<AuthorizationModel, Map<string, Compiled>>();

function compiled(model: AuthorizationModel, name: string): Compiled | undefined {
  let byName = compiledByModel.get(model);
  if (!byName) compiledByModel.set(model, (byName = new Map()));
  let entry = byName.get(name);
  if (!entry) {
    if (!Object.hasOwn(model.conditions ?? {}, name)) return undefined;
    const definition = model.conditions![name] as ConditionDefinition;
    entry = { parameters: definition.parameters ?? {} };
    try {
      entry.program = celRuntime().program.compileCondition(definition.expression ?? '', entry.parameters);
    } catch (err) {
      entry.compileError = (err as Error).message;
    }
    byName.set(name, entry);
  }
  return entry;
}

/**
 * Compiles every condition of `model` (caching the programs for the engine) and names each one that does
 * not compile: a syntax error, an undeclared name, a type error, or a result that is not a bool.
 */
export function conditionProblems(model: AuthorizationModel): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(model.conditions ?? {})) {
    const error = compiled(model, name)?.compileError;
    if (error !== undefined) problems.push(`condition \`${name}\` is invalid: ${error}`);
  }
  return problems;
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
  if (!condition.program) throw evaluationError(name, `the expression does not compile (${condition.compileError})`);
  const merged: Record<string, unknown> = { ...(context ?? {}), ...(tuple.condition?.context ?? {}) };
  const bindings: Record<string, CelInput> = {};
  const missing: string[] = [];
  for (const [parameter, type] of Object.entries(condition.parameters)) {
    if (!Object.hasOwn(merged, parameter)) {
      missing.push(parameter);
      continue;
    }
    try {
      bindings[parameter] = celRuntime().context.toCelInput(merged[parameter], type);
    } catch (err) {
      throw evaluationError(name, `failed to convert context parameter '${parameter}': ${(err as Error).message}`);
    }
  }
  if (missing.length > 0) {
    throw evaluationError(name, `tuple '${tuple.object}#${tuple.relation}@${tuple.user}' is missing context parameters '${missing.sort().join(', ')}'`);
  }
  let result: unknown;
  try {
    result = condition.program.evaluate(bindings);
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
