/**
 * A condition's CEL expression (OpenFGA Docs, "Conditions"), compiled once with @bufbuild/cel: parsed,
 * type-checked over the declared parameters (cel-type-check.ts), its comprehensions guarded
 * (cel-environment.ts), and planned into a reusable program. The engine and the model validation share
 * this entry point, so a model is refused at write for exactly the conditions the engine could not run.
 */
import { isCelError, parse, plan, type CelInput, type CelType, type CelValue } from '@bufbuild/cel';
import { CONDITION_ENV, guardComprehensions, withIterationBudget } from './cel-environment.ts';
import { celTypeOf, type ParameterType } from './cel-context.ts';
import { inferType } from './cel-type-check.ts';

export class ConditionCompileError extends Error {}
export class ConditionEvaluationError extends Error {}

export interface CompiledCondition {
  /** Evaluates over CEL inputs for the parameters; throws ConditionEvaluationError when CEL answers an error. */
  evaluate(bindings: Record<string, CelInput>): CelValue;
}

/**
 * Compiles `expression` over `parameters` whatever its type (the CEL conformance cases run through here);
 * throws ConditionCompileError naming the problem.
 */
export function compileExpression(expression: string, parameters: Record<string, ParameterType>): CompiledCondition & { type: CelType } {
  let parsed: ReturnType<typeof parse>;
  let type: CelType;
  try {
    const variables: Record<string, CelType> = {};
    for (const [name, parameter] of Object.entries(parameters)) variables[name] = celTypeOf(parameter);
    parsed = parse(expression);
    if (!parsed.expr) throw new Error('the expression is empty');
    type = inferType(parsed.expr, variables);
    guardComprehensions(parsed.expr);
  } catch (err) {
    throw new ConditionCompileError(err instanceof Error ? err.message : String(err));
  }
  let program: (bindings?: Record<string, CelInput>) => unknown;
  try {
    program = plan(CONDITION_ENV, parsed);
  } catch (err) {
    throw new ConditionCompileError(err instanceof Error ? err.message : String(err));
  }
  return {
    type,
    evaluate(bindings) {
      const result = withIterationBudget(() => program(bindings));
      if (isCelError(result)) throw new ConditionEvaluationError(result.message);
      return result as CelValue;
    },
  };
}

/**
 * Compiles a condition: an expression that answers a bool (or a value whose type is known only when it is
 * evaluated, from an `any` parameter). Throws ConditionCompileError naming the problem.
 */
export function compileCondition(expression: string, parameters: Record<string, ParameterType>): CompiledCondition {
  const compiled = compileExpression(expression, parameters);
  if (compiled.type.name !== 'bool' && compiled.type.name !== 'dyn') {
    throw new ConditionCompileError(`expected a bool condition expression output, but got '${String(compiled.type)}'`);
  }
  return compiled;
}
