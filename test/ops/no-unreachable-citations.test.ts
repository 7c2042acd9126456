/**
 * Nothing in the repository sends a reader to a document they cannot open: no source file, test, build
 * script, UI text, generated API contract or page cites a document kept outside the repository. They carry
 * the content itself, a page of docs/ (docs/errors.md, docs/operations.md#login), or a public standard. The
 * webhook dialog and the API description of add_webhook once sent readers to a notes file outside the
 * repository, and hundreds of code comments cited numbered parts of an interface document nobody who cloned
 * the repository could read. Every page of docs/ that is cited must exist, and so must the section an anchor
 * names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ALL_FLAGS } from '../../server/config/flags.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SELF = relative(ROOT, import.meta.filename);
const UNREACHABLE =
  /reference\.md|stack-notes|identity-service-spec|specification part|\bspec part|\.\.\/shared|(?<!docs\/)architecture\.md/i;
/** Folders that are installed, built, or written at run time, never authored here. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', 'dist', '.tmp', 'data', 'secrets', 'test-results']);
const SKIPPED_FILES = /(^|\/)package-lock\.json$|\.(db|db-wal|db-shm|png|jpe?g|gif|ico|woff2?|ttf|pem|wasm)$/;

/** Every authored text file of the repository, relative to its root. */
function repositoryFiles(folder = ''): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : repositoryFiles(path);
    if (!entry.isFile() || SKIPPED_FILES.test(path) || path === SELF) return [];
    return [path];
  });
}

const TEXTS = repositoryFiles()
  .map((path) => ({ path, text: readFileSync(join(ROOT, path)) }))
  .filter(({ text }) => !text.subarray(0, 8000).includes(0))
  .map(({ path, text }) => ({ path, text: text.toString('utf8') }));

test('no file of the repository cites a document outside it', () => {
  assert.ok(TEXTS.some(({ path }) => path === 'server/main.ts') && TEXTS.some(({ path }) => path === 'README.md'));
  const found: string[] = [];
  for (const { path, text } of TEXTS) {
    text.split('\n').forEach((line, index) => {
      if (UNREACHABLE.test(line)) found.push(`${path}:${index + 1}: ${line.trim().slice(0, 140)}`);
    });
  }
  assert.deepEqual(found, []);
});

test('--help cites nothing outside the repository', () => {
  assert.deepEqual(ALL_FLAGS.filter((flag) => UNREACHABLE.test(flag.help)).map((flag) => `--${flag.name}`), []);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

test('every docs/ page cited exists, and so does the section its anchor names', () => {
  const pages = new Map(TEXTS.filter(({ path }) => /^docs\/[^/]+\.md$/.test(path)).map(({ path, text }) => [path, anchorsOf(text)]));
  const broken: string[] = [];
  for (const { path, text } of TEXTS) {
    text.split('\n').forEach((line, index) => {
      for (const [, page, anchor] of line.matchAll(/(?<![\w./-])(docs\/[\w-]+\.md)(?:#([\w-]+))?/g)) {
        const anchors = pages.get(page!);
        if (!anchors) broken.push(`${path}:${index + 1}: ${page} does not exist`);
        else if (anchor && !anchors.has(anchor)) broken.push(`${path}:${index + 1}: ${page} has no section #${anchor}`);
      }
    });
  }
  assert.deepEqual(broken, []);
});

test('the anchor check knows how headings become anchors', () => {
  assert.deepEqual([...anchorsOf('# Errors\n## The REST envelope: {code, message}\n## login\n## Limits\n## Limits\n')], [
    'errors', 'the-rest-envelope-code-message', 'login', 'limits', 'limits-1',
  ]);
});
