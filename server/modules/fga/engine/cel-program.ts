/**
 * A condition's CEL expression (OpenFGA Docs, "Conditions"), compiled once with @bufbuild/cel: parsed,
 * type-checked over the declared parameters (cel-type-check.ts), its comprehensions guarded
 * (cel-environment.ts), and planned into a reusable program. The engine and the model validation share
 * this entry point, so a model is refused at write for exactly the conditions the engine could not run.
 */
import { isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { CONDITION_ENV, guardComprehensions, withIterationBudget } from './cel-environment.ts';
import { celTypeOf, type ParameterType } from './cel-context.ts';
import { inferType } from './cel-type-check.ts';

export class ConditionCompileError extends Error {}
export class ConditionEvaluationError extends Error {}

export interface CompiledCondition {
  /** Evaluates over CEL inputs for the parameters; throws ConditionEvaluationError when CEL answers an error. */
  evaluate(bindings: Record<string, CelInput>): CelValue;
}

/** Compiles `expression` over `parameters`; throws ConditionCompileError naming the problem. */
export function compileCondition(expression: string, parameters: Record<string, ParameterType>): CompiledCondition {
  let parsed: ReturnType<typeof parse>;
  const variables: Record<string, ReturnType<typeof celTypeOf>> = {};
  try {
    for (const [name, type] of Object.entries(parameters)) variables[name] = celTypeOf(type);
    parsed = parse(expression);
    if (!parsed.expr) throw new Error('the expression is empty');
    const type = inferType(parsed.expr, variables);
    if (type.name !== 'bool' && type.name !== 'dyn') {
      throw new Error(`expected a bool condition expression output, but got '${String(type)}'`);
    }
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
    evaluate(bindings) {
      const result = withIterationBudget(() => program(bindings));
      if (isCelError(result)) throw new ConditionEvaluationError(result.message);
      return result as CelValue;
    },
  };
}
