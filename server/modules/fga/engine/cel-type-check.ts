/**
 * A conservative type check of a parsed condition, so a model whose condition cannot work is refused when
 * it is written, as OpenFGA refuses it (its CEL compile step): an undeclared name, a function or operator
 * applied to arguments no overload takes, a field selected on a value that has none, or an expression
 * whose type is known and is not bool.
 *
 * @bufbuild/cel 0.6.1 has no complete checker, so the types are inferred here from the parameters'
 * declared types and the overloads the library itself declares (CONDITION_ENV.funcs). The inference is
 * conservative: where a type is not known it is `dyn`, which every overload accepts, so a condition cel-go
 * accepts is never refused (test/fga/cel-conformance.test.ts holds it to cel-go's types); what slips
 * through fails at evaluation instead, as a condition that cannot be evaluated (error 2000).
 */
import { CelScalar, listType, mapType, type CelType } from '@bufbuild/cel';
import type { Constant, Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { CONDITION_ENV } from './cel-environment.ts';

const { BOOL, BYTES, DOUBLE, DYN, INT, NULL, STRING, TYPE, UINT } = CelScalar;

/** Names that denote types in CEL (`type(x) == int`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

/** Types that are values without fields: selecting on them is an error. */
const WITHOUT_FIELDS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'null_type', 'type', 'list', TimestampSchema.typeName, DurationSchema.typeName, 'IPAddress']);

export class CelTypeError extends Error {}

function sameType(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind || a.name !== b.name) return false;
  if (a.kind === 'list' && b.kind === 'list') return sameType(a.element, b.element);
  if (a.kind === 'map' && b.kind === 'map') return sameType(a.key, b.key) && sameType(a.value, b.value);
  return true;
}

/** Whether a value of type `actual` may be passed where `declared` is expected (dyn fits both ways). */
function fits(actual: CelType, declared: CelType): boolean {
  if (actual === DYN || declared === DYN || actual.name === 'dyn' || declared.name === 'dyn') return true;
  if (actual.kind !== declared.kind || actual.name !== declared.name) return false;
  if (actual.kind === 'list' && declared.kind === 'list') return fits(actual.element, declared.element);
  if (actual.kind === 'map' && declared.kind === 'map') return fits(actual.key, declared.key) && fits(actual.value, declared.value);
  return true;
}

function constantType(constant: Constant): CelType {
  switch (constant.constantKind.case) {
    case 'boolValue':
      return BOOL;
    case 'int64Value':
      return INT;
    case 'uint64Value':
      return UINT;
    case 'doubleValue':
      return DOUBLE;
    case 'stringValue':
      return STRING;
    case 'bytesValue':
      return BYTES;
    case 'nullValue':
      return NULL;
    default:
      return DYN;
  }
}

/** One type for all of `types` when they agree, else dyn. */
function common(types: readonly CelType[]): CelType {
  const [first] = types;
  return first && types.every((t) => sameType(t, first)) ? first : DYN;
}

function describe(types: readonly CelType[]): string {
  return types.map(String).join(', ');
}

type Scope = ReadonlyMap<string, CelType>;

/** Type names written with dots (`type(t) == google.protobuf.Timestamp`). */
const QUALIFIED_TYPE_NAMES: ReadonlySet<string> = new Set([TimestampSchema.typeName, DurationSchema.typeName]);

/** `a.b.c` as one dotted name when `a` is no variable in scope, else undefined. */
function qualifiedName(expr: Expr | undefined, scope: Scope): string | undefined {
  const kind = expr?.exprKind;
  if (kind?.case === 'identExpr') return scope.has(kind.value.name) ? undefined : kind.value.name;
  if (kind?.case !== 'selectExpr' || kind.value.testOnly) return undefined;
  const operand = qualifiedName(kind.value.operand, scope);
  return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
}

function callType(name: string, target: CelType | undefined, args: CelType[]): CelType {
  switch (name) {
    case '_&&_':
    case '_||_':
      for (const arg of args) if (!fits(arg, BOOL)) throw new CelTypeError(`'${name.replaceAll('_', '')}' needs bool operands, got (${describe(args)})`);
      return BOOL;
    case '_?_:_':
      if (!fits(args[0]!, BOOL)) throw new CelTypeError(`the condition of '?:' must be a bool, got ${String(args[0])}`);
      return common(args.slice(1));
    case '@not_strictly_false':
    case '__not_strictly_false__':
      return BOOL;
    case '_[_]': {
      const [container, index] = args as [CelType, CelType];
      if (container.kind === 'list') {
        if (!fits(index, INT) && !fits(index, UINT)) throw new CelTypeError(`a list index must be an int, got ${String(index)}`);
        return container.element;
      }
      if (container.kind === 'map') return container.value;
      if (container.name === 'dyn') return DYN;
      throw new CelTypeError(`a value of type ${String(container)} cannot be indexed`);
    }
    case '_[?_]':
    case '_?._':
      return DYN;
  }
  const group = CONDITION_ENV.funcs.find(name);
  if (!group) throw new CelTypeError(`undeclared reference to '${name}'`);
  const results: CelType[] = [];
  for (const overload of group) {
    if ((overload.target === undefined) !== (target === undefined) || overload.arguments.length !== args.length) continue;
    if (target && overload.target && !fits(target, overload.target)) continue;
    if (args.every((arg, i) => fits(arg, overload.arguments[i]!))) results.push(overload.result);
  }
  if (results.length === 0) {
    const receiver = target ? `${String(target)}.` : '';
    throw new CelTypeError(`found no matching overload for '${name}' applied to '${receiver}(${describe(args)})'`);
  }
  return common(results);
}

function selectType(operand: CelType, field: string): CelType {
  if (operand.kind === 'map') return operand.value;
  if (WITHOUT_FIELDS.has(operand.name)) throw new CelTypeError(`type '${String(operand)}' has no field '${field}'`);
  return DYN;
}

function infer(expr: Expr | undefined, scope: Scope): CelType {
  if (!expr) return DYN;
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'constExpr':
      return constantType(kind.value);
    case 'identExpr': {
      const type = scope.get(kind.value.name);
      if (type) return type;
      if (TYPE_NAMES.has(kind.value.name)) return TYPE;
      throw new CelTypeError(`undeclared reference to '${kind.value.name}'`);
    }
    case 'selectExpr': {
      if (!kind.value.testOnly && QUALIFIED_TYPE_NAMES.has(qualifiedName(expr, scope) ?? '')) return TYPE;
      const operand = infer(kind.value.operand, scope);
      if (kind.value.testOnly) {
        if (operand.kind !== 'map' && WITHOUT_FIELDS.has(operand.name)) throw new CelTypeError(`has() cannot test a field of type '${String(operand)}'`);
        return BOOL;
      }
      return selectType(operand, kind.value.field);
    }
    case 'callExpr': {
      const target = kind.value.target ? infer(kind.value.target, scope) : undefined;
      return callType(kind.value.function, target, kind.value.args.map((arg) => infer(arg, scope)));
    }
    case 'listExpr':
      return listType(common(kind.value.elements.map((element) => infer(element, scope))));
    case 'structExpr': {
      const entries = kind.value.entries;
      const values = entries.map((entry) => infer(entry.value, scope));
      if (kind.value.messageName !== '') return DYN;
      const keys = entries.map((entry) => (entry.keyKind.case === 'mapKey' ? infer(entry.keyKind.value, scope) : DYN));
      const key = common(keys);
      return mapType(key === INT || key === UINT || key === BOOL || key === STRING ? key : DYN, common(values));
    }
    case 'comprehensionExpr': {
      const { iterVar, iterVar2, iterRange, accuVar, accuInit, loopCondition, loopStep, result } = kind.value;
      const range = infer(iterRange, scope);
      // One variable: a list's elements or a map's keys; two: index and element, or key and value.
      let first: CelType = DYN;
      let second: CelType = DYN;
      if (range.kind === 'list') [first, second] = [iterVar2 ? INT : range.element, range.element];
      else if (range.kind === 'map') [first, second] = [range.key, range.value];
      else if (range.name !== 'dyn') throw new CelTypeError(`a value of type ${String(range)} cannot be iterated`);
      const withAccu = new Map(scope).set(accuVar, infer(accuInit, scope));
      const inLoop = new Map(withAccu).set(iterVar, first);
      if (iterVar2) inLoop.set(iterVar2, second);
      infer(loopCondition, inLoop);
      infer(loopStep, inLoop);
      return infer(result, withAccu);
    }
    default:
      return DYN;
  }
}

/**
 * The type of `expr` over the declared `variables`; throws a CelTypeError when the expression cannot be
 * evaluated whatever the values.
 */
export function inferType(expr: Expr, variables: Record<string, CelType>): CelType {
  return infer(expr, new Map(Object.entries(variables)));
}
