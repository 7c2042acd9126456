/**
 * What a user or an integrator reads never sends them to a document they cannot open: the README and
 * docs/, the UIs' text catalogues, every flag's --help text, and the API contract generated from the
 * operation registry (operation and field descriptions, in proto/, graphql/ and openapi/). They carry the
 * content itself, a page of docs/, or a public standard. The webhook dialog once said "(reference.md
 * "Events")", the API description of add_webhook too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ALL_FLAGS } from '../../server/config/flags.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const UNREACHABLE = /reference\.md|stack-notes|identity-service-spec|architecture\.md|specification part|\bspec part/i;

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(keep);
}

test('README, docs, UI catalogues and the generated API contract cite nothing outside the repository', () => {
  const files = [
    join(ROOT, 'README.md'),
    ...filesUnder('docs', (path) => path.endsWith('.md')),
    ...filesUnder('console/src', (path) => /i18n/.test(relative(ROOT, path))),
    ...filesUnder('login-ui/src', (path) => /i18n/.test(relative(ROOT, path))),
    ...filesUnder('proto', (path) => path.endsWith('.proto')),
    ...filesUnder('graphql', (path) => path.endsWith('.graphql')),
    ...filesUnder('openapi', (path) => path.endsWith('.json')),
  ];
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      if (UNREACHABLE.test(line)) found.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim().slice(0, 140)}`);
    });
  }
  assert.deepEqual(found, []);
});

test('--help cites nothing outside the repository', () => {
  assert.deepEqual(ALL_FLAGS.filter((flag) => UNREACHABLE.test(flag.help)).map((flag) => `--${flag.name}`), []);
});
