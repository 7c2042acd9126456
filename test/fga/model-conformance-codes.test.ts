/**
 * Replays OpenFGA's conformance files (from the openfga/openfga repository's tests; read at test time from
 * shared/conformance/openfga in the folder that holds this repository, never copied)
 * through the model module alone: every stage model parses, every stage tuple is valid for writing, every
 * request that expects an answer passes request and contextual-tuple validation, and every request that
 * expects a validation code (2000, 2021, 2022, 2027) is refused with exactly that code. Code 2002 (the
 * resolution depth limit) and the ABAC file's 2000s (a condition evaluated without its context) come from
 * the engine and are left to its conformance test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  fgaCodeOf,
  parseModel,
  validateCheckRequest,
  validateListObjectsRequest,
  validateListUsersRequest,
  validateTuple,
} from '../../server/modules/fga/model/index.ts';
import type { AuthorizationModel, TupleKey } from '../../server/modules/fga/types.ts';

const CONFORMANCE_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'conformance', 'openfga');
const MODEL_CODES = new Set([2000, 2021, 2022, 2027]);

interface Assertion {
  tuple?: TupleKey;
  request?: { user?: string; type?: string; relation?: string; object?: string; filters?: string[] };
  contextualTuples?: TupleKey[];
  expectation?: unknown;
  errorCode?: number;
}

interface Stage {
  model: string;
  tuples?: TupleKey[];
  checkAssertions?: Assertion[];
  listObjectsAssertions?: Assertion[];
  listUsersAssertions?: Assertion[];
}

interface Outcome {
  checked: number;
  problems: string[];
}

function codeOf(fn: () => void): number | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    const code = fgaCodeOf(err);
    if (code === undefined) throw err;
    return code;
  }
}

function withContextual(model: AuthorizationModel, assertion: Assertion, validateRequest: () => void): () => void {
  return () => {
    validateRequest();
    for (const t of assertion.contextualTuples ?? []) validateTuple(model, t, { contextual: true });
  };
}

function replayStage(name: string, stage: Stage, requestCodesAreOurs: boolean, outcome: Outcome): void {
  let model: AuthorizationModel;
  try {
    model = parseModel(stage.model);
  } catch (err) {
    outcome.problems.push(`${name}: the model is refused: ${(err as Error).message}`);
    return;
  }
  for (const t of stage.tuples ?? []) {
    const code = codeOf(() => validateTuple(model, t));
    outcome.checked++;
    if (code !== undefined) outcome.problems.push(`${name}: stage tuple ${t.object}#${t.relation}@${t.user} refused with ${code}`);
  }
  const runs: [string, Assertion, () => void][] = [
    ...(stage.checkAssertions ?? []).map((a): [string, Assertion, () => void] => ['check', a, withContextual(model, a, () => validateCheckRequest(model, a.tuple!))]),
    ...(stage.listObjectsAssertions ?? []).map((a): [string, Assertion, () => void] => [
      'list objects',
      a,
      withContextual(model, a, () => validateListObjectsRequest(model, { user: a.request!.user!, type: a.request!.type!, relation: a.request!.relation! })),
    ]),
    ...(stage.listUsersAssertions ?? []).map((a): [string, Assertion, () => void] => [
      'list users',
      a,
      withContextual(model, a, () => {
        const userFilters = (a.request!.filters ?? []).map((f) => {
          const [type, relation] = f.split('#');
          return relation ? { type: type!, relation } : { type: type! };
        });
        validateListUsersRequest(model, { object: a.request!.object!, relation: a.request!.relation!, userFilters });
      }),
    ]),
  ];
  for (const [kind, assertion, run] of runs) {
    const expected = assertion.errorCode;
    if (expected !== undefined && (!MODEL_CODES.has(expected) || !requestCodesAreOurs)) continue;
    const actual = codeOf(run);
    outcome.checked++;
    if (actual !== expected) {
      outcome.problems.push(`${name}: ${kind} ${JSON.stringify(assertion.tuple ?? assertion.request)} expected ${expected ?? 'no error'}, got ${actual ?? 'no error'}`);
    }
  }
}

function replayFile(file: string, requestCodesAreOurs: boolean): Outcome {
  const doc = parse(readFileSync(join(CONFORMANCE_DIR, file), 'utf8')) as { tests: { name: string; stages: Stage[] }[] };
  const outcome: Outcome = { checked: 0, problems: [] };
  for (const t of doc.tests) t.stages.forEach((stage, i) => replayStage(`${t.name} stage ${i + 1}`, stage, requestCodesAreOurs, outcome));
  return outcome;
}

const absent = existsSync(CONFORMANCE_DIR) ? false : `the OpenFGA conformance files are absent (${CONFORMANCE_DIR})`;

describe('the model module against OpenFGA conformance cases', () => {
  test('consolidated_1_1_tests.yaml: models, tuples and validation codes', { skip: absent }, () => {
    const outcome = replayFile('consolidated_1_1_tests.yaml', true);
    console.log(`consolidated_1_1_tests.yaml: ${outcome.checked} model-level assertions, ${outcome.problems.length} failed`);
    assert.deepEqual(outcome.problems, []);
    assert.ok(outcome.checked > 900, `only ${outcome.checked} assertions were replayed`);
  });

  test('abac_tests.yaml: conditional models and tuples are accepted', { skip: absent }, () => {
    const outcome = replayFile('abac_tests.yaml', false);
    console.log(`abac_tests.yaml: ${outcome.checked} model-level assertions, ${outcome.problems.length} failed`);
    assert.deepEqual(outcome.problems, []);
  });
});
