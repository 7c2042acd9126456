/**
 * The frontends' client contract (ui-shared/contract/, build/gen-ui-contract.ts) must be exactly what the
 * operation registry generates, as proto/, openapi/ and graphql/ must; each generated GraphQL document must
 * be valid against the committed SDL (graphql/portcullis.graphql); and the browser apps must not reach into
 * server/ (they are clients of the API, docs/identity-boundary.md): console/src, login-ui/src and ui-shared
 * import nothing from it. On a drift failure run `npm run gen` and commit the result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSchema, parse, validate, visit } from 'graphql';
import ts from 'typescript';
import { registry } from '../../server/ops/registry.ts';
import { GRAPHQL_SDL_FILE } from '../../build/gen-api-reference.ts';
import { UI_CONTRACT_DIR, uiContractFiles } from '../../build/gen-ui-contract.ts';
import { ADMIN_DOCUMENTS } from '../../ui-shared/contract/admin-documents.ts';
import { PUBLIC_DOCUMENTS } from '../../ui-shared/contract/public-documents.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const OPERATION_DOCUMENTS = { ...PUBLIC_DOCUMENTS, ...ADMIN_DOCUMENTS };
/** The hand-written files of ui-shared/contract/: the typed calls over the generated documents. */
const HAND_WRITTEN = ['call.ts', 'public-call.ts', 'send.ts'];

test('ui-shared/contract matches the registry', () => {
  const generated = uiContractFiles();
  for (const [name, text] of Object.entries(generated)) {
    assert.equal(
      readFileSync(join(UI_CONTRACT_DIR, name), 'utf8'),
      text,
      `ui-shared/contract/${name} is stale: run \`npm run gen\` and commit the result`,
    );
  }
  const written = readdirSync(UI_CONTRACT_DIR).filter((name) => !HAND_WRITTEN.includes(name)).sort();
  assert.deepEqual(written, Object.keys(generated).sort(), 'ui-shared/contract holds a file the generator no longer writes');
});

test('every operation has a generated document, valid against the committed SDL', () => {
  const schema = buildSchema(readFileSync(GRAPHQL_SDL_FILE, 'utf8'));
  assert.deepEqual(Object.keys(OPERATION_DOCUMENTS).sort(), registry.all.map((op) => op.name).sort());
  assert.deepEqual(Object.keys(PUBLIC_DOCUMENTS).sort(), registry.all.filter((op) => !op.admin).map((op) => op.name).sort());
  for (const [name, { document, field }] of Object.entries(OPERATION_DOCUMENTS)) {
    const errors = validate(schema, parse(document));
    assert.deepEqual(errors.map((error) => error.message), [], `the document of ${name} is not valid: ${document}`);
    assert.ok(document.includes(` ${field}`), `the document of ${name} does not select ${field}`);
  }
});

test('no generated document asks for a token: the browser apps are signed in by HttpOnly cookies', () => {
  const asked: string[] = [];
  for (const [name, { document }] of Object.entries(OPERATION_DOCUMENTS)) {
    visit(parse(document), {
      Field(node) {
        if (/^(access|id|refresh)_token$/.test(node.name.value)) asked.push(`${name}: ${node.name.value}`);
      },
    });
  }
  assert.deepEqual(asked, []);
  assert.match(OPERATION_DOCUMENTS.login.document, / user \{ id /, 'login still selects the signed-in user');
});

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|js|jsx|mjs)$/.test(entry.name)) yield path;
  }
}

/** Every module specifier of a file: static imports and re-exports, `import()` and `new URL(..., import.meta.url)`. */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL' && node.arguments?.[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('console/src, login-ui/src and ui-shared import nothing from server/', () => {
  const server = join(ROOT, 'server');
  const offending: string[] = [];
  let scanned = 0;
  for (const folder of ['console/src', 'login-ui/src', 'ui-shared']) {
    for (const file of sourceFiles(join(ROOT, folder))) {
      scanned += 1;
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
        const target = resolve(dirname(file), specifier);
        if (target === server || target.startsWith(`${server}/`)) offending.push(`${relative(ROOT, file)} imports ${specifier}`);
      }
    }
  }
  assert.ok(scanned > 100, `only ${scanned} files scanned`);
  assert.deepEqual(offending, []);
});

test('the login UI reaches the contract through public-call.ts only, so no admin document is in its bundle', () => {
  const adminSide = ['call.ts', 'admin-documents.ts'].map((name) => join(UI_CONTRACT_DIR, name));
  const offending: string[] = [];
  for (const file of sourceFiles(join(ROOT, 'login-ui/src'))) {
    for (const specifier of specifiersOf(file)) {
      if (adminSide.includes(resolve(dirname(file), specifier))) offending.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(offending, []);
});
