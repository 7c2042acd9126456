/**
 * The one CEL environment every condition is planned in: @bufbuild/cel's standard library (operators,
 * `size`, `contains`, `startsWith`, `endsWith`, `matches` on RE2, conversions, timestamps and durations,
 * the `has`, `all`, `exists`, `exists_one`, `map` and `filter` macros) plus OpenFGA's `ipaddress`
 * functions (cel-ipaddress.ts) and an iteration guard.
 *
 * The guard bounds the work of one evaluation, as OpenFGA bounds it with its CEL cost limit: every step of
 * a comprehension (`list.all(x, ...)` and the other macros) costs one iteration, nested ones included,
 * and past MAX_CONDITION_ITERATIONS the evaluation ends with an error. Without comprehensions an
 * expression's work is linear in its size and its inputs, and the model's size is bounded
 * (model-limits.ts). The guard is a call the planner evaluates on every step: compiled conditions have
 * each comprehension's loop condition wrapped in it (guardComprehensions).
 */
import { celEnv, celFunc, CelScalar, type CelEnv } from '@bufbuild/cel';
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { IPADDRESS_FUNCTIONS } from './cel-ipaddress.ts';

/** Comprehension steps one condition evaluation may take, all comprehensions together. */
export const MAX_CONDITION_ITERATIONS = 1_000;

/** `@` cannot start an identifier in CEL, so no expression can call the guard by name. */
const ITERATION_GUARD = '@fga_iteration';

let iterationsLeft = MAX_CONDITION_ITERATIONS;

const iterationGuard = celFunc(ITERATION_GUARD, [CelScalar.DYN], CelScalar.DYN, (loopCondition) => {
  if (--iterationsLeft < 0) {
    throw new RangeError(`the condition takes more than ${MAX_CONDITION_ITERATIONS} comprehension steps`);
  }
  return loopCondition;
});

export const CONDITION_ENV: CelEnv = celEnv({ funcs: [...IPADDRESS_FUNCTIONS, iterationGuard] });

/**
 * Runs one evaluation with a fresh iteration budget. Evaluation is synchronous, so one counter serves
 * every condition.
 */
export function withIterationBudget<T>(evaluate: () => T): T {
  iterationsLeft = MAX_CONDITION_ITERATIONS;
  return evaluate();
}

function maxId(expr: Expr | undefined): bigint {
  if (!expr) return 0n;
  let max = expr.id;
  for (const child of children(expr)) {
    const id = maxId(child);
    if (id > max) max = id;
  }
  return max;
}

function children(expr: Expr): Array<Expr | undefined> {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'selectExpr':
      return [kind.value.operand];
    case 'callExpr':
      return [kind.value.target, ...kind.value.args];
    case 'listExpr':
      return kind.value.elements;
    case 'structExpr':
      return kind.value.entries.flatMap((entry) => [entry.keyKind.case === 'mapKey' ? entry.keyKind.value : undefined, entry.value]);
    case 'comprehensionExpr':
      return [kind.value.iterRange, kind.value.accuInit, kind.value.loopCondition, kind.value.loopStep, kind.value.result];
    default:
      return [];
  }
}

/** Wraps the loop condition of every comprehension of `root` (in place) in the iteration guard. */
export function guardComprehensions(root: Expr): void {
  let nextId = maxId(root) + 1n;
  const visit = (expr: Expr | undefined): void => {
    if (!expr) return;
    for (const child of children(expr)) visit(child);
    if (expr.exprKind.case !== 'comprehensionExpr') return;
    const comprehension = expr.exprKind.value;
    const loopCondition = comprehension.loopCondition;
    if (!loopCondition) return;
    comprehension.loopCondition = {
      $typeName: 'cel.expr.Expr',
      id: nextId++,
      exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: ITERATION_GUARD, args: [loopCondition] } },
    } as Expr;
  };
  visit(root);
}
