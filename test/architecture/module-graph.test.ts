/**
 * The module graph of server/modules keeps its layers (.dependency-cruiser.cjs): no cycle between module
 * folders and no import of another module's files past its index.ts, type-only imports included. Checked by
 * dependency-cruiser with the repository's own rule set, so `npx depcruise --config .dependency-cruiser.cjs
 * --output-type err server` shows the same violations this test prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = join(import.meta.dirname, '..', '..');

function describeViolation(violation: IViolation): string {
  const path = violation.cycle?.length ? [violation.from, ...violation.cycle.map((step) => step.name)].join(' -> ') : `${violation.from} -> ${violation.to}`;
  return `${violation.rule.name}: ${path}`;
}

/** The cruise of server/ under the repository's rule set, run from the repository's root. */
async function cruiseServer(): Promise<ICruiseResult> {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
    const tsConfig = extractTSConfig('./tsconfig.json');
    const { output } = await cruise(['server'], { ...options, validate: true }, undefined, { tsConfig });
    assert.equal(typeof output, 'object', 'the cruise answers a result, not a report');
    return output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}

test('server modules: no cycle between modules, no import past another module index.ts', async () => {
  const result = await cruiseServer();
  const ruleNames = new Set(result.summary.ruleSetUsed?.forbidden?.map((rule) => rule.name));
  assert.ok(ruleNames.has('no-module-cycle') && ruleNames.has('no-deep-import'), 'both rules are in the rule set');
  // Cruising nothing would pass too: the module folders must be in the graph.
  assert.ok(result.summary.totalCruised > 100, `cruised ${result.summary.totalCruised} files of server/modules`);
  const violations = result.summary.violations.map(describeViolation);
  assert.deepEqual(violations, [], `module graph violations:\n${violations.join('\n')}`);
});
