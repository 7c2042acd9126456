/**
 * Checks the `context` stored with a conditional tuple against the condition's declared parameters, the
 * way OpenFGA casts it before writing (CastContextToTypedParameters): every value given for a declared
 * parameter must convert to that parameter's type, by the same conversion the engine applies when it
 * evaluates (engine/cel-context.ts); keys the condition does not declare are ignored. The CEL expression
 * itself is evaluated by the engine, not here.
 */
import type { ParameterType } from '../engine/cel-context.ts';
import { celRuntime } from '../engine/cel-loader.ts';

interface ConditionShape {
  parameters?: Record<string, ParameterType>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` converts to the parameter type (names as in the model JSON: TYPE_NAME_INT, ...). */
export function fitsParameterType(value: unknown, type: ParameterType): boolean {
  try {
    celRuntime().context.toCelInput(value, type);
    return true;
  } catch {
    return false;
  }
}

/** The first problem with `context` for `condition`, or undefined when it fits. */
export function conditionContextProblem(conditionName: string, condition: unknown, context: Record<string, unknown> | undefined): string | undefined {
  if (context === undefined || context === null) return undefined;
  if (!isPlainObject(context)) return `the context of condition '${conditionName}' must be an object`;
  const keys = Object.keys(context);
  if (keys.length === 0) return undefined;
  const parameters = (condition as ConditionShape | undefined)?.parameters ?? {};
  if (Object.keys(parameters).length === 0) return `condition '${conditionName}' declares no parameters, yet a context was given`;
  for (const key of keys) {
    if (!Object.hasOwn(parameters, key)) continue;
    const type = parameters[key]!;
    if (!fitsParameterType(context[key], type)) {
      const typeName = String(type.type_name ?? 'unknown').replace(/^TYPE_NAME_/, '').toLowerCase();
      return `context parameter '${key}' of condition '${conditionName}' is not a valid ${typeName}`;
    }
  }
  return undefined;
}
