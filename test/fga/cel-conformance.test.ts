/**
 * The CEL specification's conformance cases (github.com/google/cel-spec, shipped as data by
 * @bufbuild/cel-spec) run through the engine's own entry point for conditions, compileExpression in
 * engine/cel-program.ts: the same parse, type check, comprehension guard and plan that every FGA
 * condition goes through (compileCondition adds only the bool requirement).
 *
 * Included: the sections over the values and functions OpenFGA conditions allow (OpenFGA Docs,
 * "Conditions": bool, string, int, uint, double, duration, timestamp, list, map, any; comparison,
 * arithmetic, logic, `in`, `has`, the macros, string functions, conversions, timestamps and durations,
 * literal and parser rules). Excluded, because an OpenFGA condition cannot reach them:
 *
 * - protobuf messages, enums, wrappers and dynamic proto values (proto2, proto3, proto2_ext, enums,
 *   wrappers, dynamic, comparisons/eq_wrapper, type_deductions, fields/qualified_identifier_resolution,
 *   namespace): condition parameters are never messages, and conditions have no container;
 * - CEL extensions OpenFGA does not enable (bindings_ext, block_ext, encoders_ext, math_ext, string_ext,
 *   optionals, macros2's two-variable comprehensions);
 * - bytes (conversions/bytes, string/bytes_concat, parse/bytes_literals): not an OpenFGA type;
 * - backquoted field names (fields/quoted_map_fields, parse/struct_field_names): CEL syntax newer than
 *   @bufbuild/cel 0.6.1's parser (and than OpenFGA's documented conditions);
 * - plumbing and unknowns: harness checks and partial evaluation, which conditions do not use.
 *
 * Every included case must evaluate to its expected value or error; every case cel-go accepts must pass
 * the write-time type check, and where that check knows the type, it must be cel-go's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getConformanceSuite, type IncrementalTest } from '@bufbuild/cel-spec/testdata/tests.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import type { Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import { celUint, isCelList, isCelMap, isCelType, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { equals as equalMessages, type Message } from '@bufbuild/protobuf';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { compileExpression, ConditionCompileError, ConditionEvaluationError } from '../../server/modules/fga/engine/cel-program.ts';
import type { ParameterType } from '../../server/modules/fga/engine/cel-context.ts';

const INCLUDED: Record<string, readonly string[] | 'all'> = {
  basic: 'all',
  comparisons: ['eq_literal', 'ne_literal', 'lt_literal', 'gt_literal', 'lte_literal', 'gte_literal', 'in_list_literal', 'in_map_literal', 'bound'],
  conversions: ['double', 'dyn', 'int', 'string', 'type', 'uint', 'bool', 'identity'],
  fields: ['map_fields', 'map_has', 'in'],
  fp_math: 'all',
  integer_math: 'all',
  lists: 'all',
  logic: 'all',
  macros: 'all',
  parse: ['nest', 'repeat', 'string_literals', 'whitespace', 'comments', 'selectors', 'receiver_function_names'],
  string: ['size', 'starts_with', 'ends_with', 'matches', 'concatenation', 'contains'],
  timestamps: 'all',
};

const registry = getTestRegistry();

/** A conformance value as the CEL input the engine would bind. */
function toInput(value: Value): CelInput {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'int64Value':
    case 'doubleValue':
    case 'stringValue':
    case 'bytesValue':
      return kind.value;
    case 'uint64Value':
      return celUint(kind.value);
    case 'listValue':
      return kind.value.values.map(toInput);
    case 'mapValue':
      return new Map(kind.value.entries.map((entry) => [toInput(entry.key!), toInput(entry.value!)])) as CelInput;
    case 'objectValue': {
      const message = anyUnpack(kind.value, registry);
      if (!message) throw new Error(`cannot unpack ${kind.value.typeUrl}`);
      return message as CelInput;
    }
    default:
      throw new Error(`unsupported conformance value ${String(kind.case)}`);
  }
}

/** The OpenFGA parameter type closest to a declared CEL type (any when OpenFGA has none). */
function parameterType(type: Type | undefined): ParameterType {
  const kind = type?.typeKind;
  switch (kind?.case) {
    case 'primitive':
      return { type_name: ({ 1: 'TYPE_NAME_BOOL', 2: 'TYPE_NAME_INT', 3: 'TYPE_NAME_UINT', 4: 'TYPE_NAME_DOUBLE', 5: 'TYPE_NAME_STRING' } as Record<number, string>)[kind.value] ?? 'TYPE_NAME_ANY' };
    case 'wellKnown':
      return { type_name: ({ 2: 'TYPE_NAME_TIMESTAMP', 3: 'TYPE_NAME_DURATION' } as Record<number, string>)[kind.value] ?? 'TYPE_NAME_ANY' };
    case 'listType':
      return { type_name: 'TYPE_NAME_LIST', generic_types: [parameterType(kind.value.elemType)] };
    case 'mapType':
      if (kind.value.keyType?.typeKind.case === 'primitive' && kind.value.keyType.typeKind.value === 5) {
        return { type_name: 'TYPE_NAME_MAP', generic_types: [parameterType(kind.value.valueType)] };
      }
      return { type_name: 'TYPE_NAME_ANY' };
    default:
      return { type_name: 'TYPE_NAME_ANY' };
  }
}

/** Whether `actual` is the conformance `expected` value: same CEL type and value (NaN is NaN). */
function sameValue(actual: CelValue, expected: Value): boolean {
  const kind = expected.kind;
  switch (kind.case) {
    case 'nullValue':
      return actual === null;
    case 'boolValue':
    case 'int64Value':
    case 'stringValue':
      return actual === kind.value;
    case 'doubleValue':
      return typeof actual === 'number' && (Object.is(actual, kind.value) || actual === kind.value || (Number.isNaN(actual) && Number.isNaN(kind.value)));
    case 'uint64Value':
      return isCelUint(actual) && actual.value === kind.value;
    case 'bytesValue':
      return actual instanceof Uint8Array && Buffer.from(actual).equals(Buffer.from(kind.value));
    case 'listValue': {
      if (!isCelList(actual) || actual.size !== kind.value.values.length) return false;
      return kind.value.values.every((item, i) => sameValue(actual.get(i) as CelValue, item));
    }
    case 'mapValue': {
      if (!isCelMap(actual) || actual.size !== kind.value.entries.length) return false;
      return kind.value.entries.every((entry) => {
        const value = actual.get(toInput(entry.key!) as never);
        return value !== undefined && sameValue(value as CelValue, entry.value!);
      });
    }
    case 'typeValue':
      return isCelType(actual) && actual.name === kind.value;
    case 'objectValue': {
      const message = anyUnpack(kind.value, registry) as Message | undefined;
      if (!message || !isReflectMessage(actual)) return false;
      return actual.desc.typeName === message.$typeName && equalMessages(actual.desc, actual.message, message as never);
    }
    default:
      return false;
  }
}

interface Outcome {
  ran: number;
  skipped: string[];
  failures: string[];
  typeChecked: number;
  refusedLikeCelGo: number;
  refusedBeforeFailing: number;
}

function runCase(testCase: IncrementalTest, label: string, outcome: Outcome): void {
  const original = testCase.original;
  const matcher = original.resultMatcher;
  // Partial evaluation, containers and protobuf test messages are out of scope (see the top of this file).
  if (matcher.case === 'unknown' || matcher.case === 'anyUnknowns' || original.container !== '' || /TestAllTypes|conformance\./.test(original.expr)) {
    outcome.skipped.push(label);
    return;
  }
  const parameters: Record<string, ParameterType> = {};
  for (const decl of original.typeEnv) {
    if (decl.declKind.case === 'ident') parameters[decl.name] = parameterType(decl.declKind.value.type);
  }
  const bindings: Record<string, CelInput> = {};
  for (const [name, binding] of Object.entries(original.bindings)) {
    if (binding.kind.case !== 'value') continue;
    bindings[name] = toInput(binding.kind.value);
    parameters[name] ??= { type_name: 'TYPE_NAME_ANY' };
  }
  outcome.ran++;
  const expectsError = matcher.case === 'evalError' || matcher.case === 'anyEvalErrors';
  let program: ReturnType<typeof compileExpression>;
  try {
    program = compileExpression(original.expr, parameters);
  } catch (err) {
    // Refusing at compile is right where cel-go's checker refuses too (`testCase.error`): OpenFGA compiles
    // with it, so it refuses such a condition when the model is written. Where the case expects an
    // evaluation error, the expression cannot succeed whatever its inputs (the check looks at types, not
    // values), so refusing it earlier is the same answer.
    if (!(err instanceof ConditionCompileError)) throw err;
    if (testCase.error !== undefined) outcome.refusedLikeCelGo++;
    else if (expectsError) outcome.refusedBeforeFailing++;
    else outcome.failures.push(`${label}: refused at compile: ${err.message}`);
    return;
  }
  if (testCase.type !== undefined && !original.disableCheck) {
    outcome.typeChecked++;
    // cel-go spells the null, timestamp and duration types null, timestamp and duration.
    const ours = String(program.type).replace(/null_type/g, 'null').replace(/google\.protobuf\.(Timestamp|Duration)/g, (_, name: string) => name.toLowerCase());
    if (ours !== 'dyn' && ours !== 'type' && ours !== testCase.type && !ours.includes('dyn')) {
      outcome.failures.push(`${label}: type check says ${ours}, cel-go says ${testCase.type}`);
    }
  }
  if (original.checkOnly) return;
  let result: CelValue | undefined;
  let error: unknown;
  try {
    result = program.evaluate(bindings);
  } catch (err) {
    if (!(err instanceof ConditionEvaluationError)) throw err;
    error = err;
  }
  if (expectsError) {
    if (error === undefined) outcome.failures.push(`${label}: expected an error, got ${String(result)}`);
    return;
  }
  if (error !== undefined) {
    outcome.failures.push(`${label}: unexpected error ${(error as Error).message}`);
    return;
  }
  const expected = matcher.case === 'value' ? matcher.value : matcher.case === 'typedResult' ? matcher.value.result : undefined;
  if (expected === undefined) {
    // No result matcher: the case only asserts that the expression evaluates to true.
    if (result !== true) outcome.failures.push(`${label}: expected true, got ${String(result)}`);
  } else if (!sameValue(result!, expected)) {
    outcome.failures.push(`${label}: expected ${JSON.stringify(expected.kind, (_, v) => (typeof v === 'bigint' ? `${v}` : v))}, got ${String(result)}`);
  }
}

test('CEL conformance (cel-spec) through the condition compiler: every selected case passes', () => {
  const suite = getConformanceSuite();
  const outcome: Outcome = { ran: 0, skipped: [], failures: [], typeChecked: 0, refusedLikeCelGo: 0, refusedBeforeFailing: 0 };
  const bySection: string[] = [];
  for (const file of suite.suites) {
    const included = INCLUDED[file.name];
    if (!included) continue;
    for (const section of file.suites) {
      if (included !== 'all' && !included.includes(section.name)) continue;
      const before = outcome.ran;
      for (const testCase of section.tests) runCase(testCase, `${file.name}/${section.name}/${testCase.name}`, outcome);
      bySection.push(`${file.name}/${section.name} ${outcome.ran - before}`);
    }
  }
  console.log(`CEL conformance: ${outcome.ran} cases run (${outcome.typeChecked} type-checked against cel-go), ${outcome.ran - outcome.failures.length} passed (${outcome.refusedLikeCelGo} of them refused at compile as cel-go's checker refuses them, ${outcome.refusedBeforeFailing} expected to fail refused at compile), ${outcome.failures.length} failed, ${outcome.skipped.length} skipped`);
  console.log(`  sections: ${bySection.join(', ')}`);
  for (const skipped of outcome.skipped) console.log(`  skipped ${skipped}`);
  assert.ok(outcome.ran > 700, `only ${outcome.ran} cases ran`);
  assert.deepEqual(outcome.failures, []);
});
