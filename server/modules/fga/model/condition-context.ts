/**
 * Checks the `context` stored with a conditional tuple against the condition's declared parameters, the
 * way OpenFGA casts it before writing (CastContextToTypedParameters): every value given for a declared
 * parameter must convert to that parameter's type; keys the condition does not declare are ignored. The
 * CEL expression itself is evaluated by the engine, not here.
 */
import { isIP } from 'node:net';

interface ParameterType {
  type_name?: string;
  generic_types?: ParameterType[];
}

interface ConditionShape {
  parameters?: Record<string, ParameterType>;
}

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$|^0$/;

function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && /^[-+]?\d+$/.test(value);
}

function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` converts to the parameter type (names as in the model JSON: TYPE_NAME_INT, ...). */
export function fitsParameterType(value: unknown, type: ParameterType): boolean {
  const generic = type.generic_types?.[0];
  switch (type.type_name) {
    case 'TYPE_NAME_ANY':
      return true;
    case 'TYPE_NAME_BOOL':
      return typeof value === 'boolean';
    case 'TYPE_NAME_STRING':
      return typeof value === 'string';
    case 'TYPE_NAME_INT':
      return isInteger(value);
    case 'TYPE_NAME_UINT':
      return isInteger(value) && Number(value) >= 0;
    case 'TYPE_NAME_DOUBLE':
      return isNumeric(value);
    case 'TYPE_NAME_DURATION':
      return typeof value === 'string' && GO_DURATION.test(value);
    case 'TYPE_NAME_TIMESTAMP':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
    case 'TYPE_NAME_IPADDRESS':
      return typeof value === 'string' && isIP(value) !== 0;
    case 'TYPE_NAME_LIST':
      return Array.isArray(value) && (!generic || value.every((item) => fitsParameterType(item, generic)));
    case 'TYPE_NAME_MAP':
      return isPlainObject(value) && (!generic || Object.values(value).every((item) => fitsParameterType(item, generic)));
    default:
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
