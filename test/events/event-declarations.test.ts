/**
 * Every webhook event name (docs/events.md) is declared by exactly one module manifest, the module whose files
 * record it (docs/architecture.md#adding-a-module). modules/events keeps the closed list (EVENT_NAMES, the
 * EventName type) because it is a foundation and cannot read the manifests above it; this test ties the two.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MODULES, type ModuleManifest } from '../../server/modules/index.ts';
import { EVENT_NAMES } from '../../server/modules/events/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MODULES_DIR = join(ROOT, 'server', 'modules');

/** The manifests each module folder's index.ts exports (accounts exports two: accounts, accounts-admin). */
async function manifestsByFolder(): Promise<Map<string, ModuleManifest[]>> {
  const listed = new Set<unknown>(MODULES);
  const byFolder = new Map<string, ModuleManifest[]>();
  for (const entry of readdirSync(MODULES_DIR, { withFileTypes: true })) {
    const index = join(MODULES_DIR, entry.name, 'index.ts');
    if (!entry.isDirectory() || !existsSync(index)) continue;
    const exports = (await import(index)) as Record<string, unknown>;
    byFolder.set(entry.name, Object.values(exports).filter((value): value is ModuleManifest => listed.has(value)));
  }
  return byFolder;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const declarations = MODULES.flatMap((module) => module.events.map((event) => ({ event, module: module.name })));

test('each event name is declared by exactly one manifest, and every declared name is in the closed list', () => {
  for (const name of EVENT_NAMES) {
    const declaring = declarations.filter((declaration) => declaration.event === name).map((declaration) => declaration.module);
    assert.equal(declaring.length, 1, `${name} is declared by ${declaring.length ? declaring.join(', ') : 'no manifest'}`);
  }
  for (const { event, module } of declarations) assert.ok((EVENT_NAMES as readonly string[]).includes(event), `${module} declares ${event}`);
});

test('every declared event name is documented in docs/events.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
  for (const { event, module } of declarations) assert.ok(doc.includes(`\`${event}\``), `${event} (${module}) is missing from docs/events.md`);
});

test('every event name a module records is declared by that module', async () => {
  const byFolder = await manifestsByFolder();
  const names = new Set<string>(EVENT_NAMES);
  const undeclared: string[] = [];
  let recorders = 0;
  for (const [folder, manifests] of byFolder) {
    const declared = new Set(manifests.flatMap((manifest) => manifest.events));
    for (const file of sourceFiles(join(MODULES_DIR, folder))) {
      const source = readFileSync(file, 'utf8');
      // Files that record events; their quoted event names (some are picked by a condition or a list).
      if (!/\brecordEvent\(/.test(source) || folder === 'events') continue;
      recorders += 1;
      for (const [, literal] of source.matchAll(/'([a-z]+\.[a-z_]+)'/g)) {
        if (names.has(literal!) && !declared.has(literal as never)) undeclared.push(`${relative(ROOT, file)} records ${literal}, undeclared by ${folder}`);
      }
    }
  }
  assert.ok(recorders >= 5, 'the files that record events are found');
  assert.deepEqual(undeclared, []);
});
