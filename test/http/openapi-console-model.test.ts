/**
 * The console's API reference reads the committed OpenAPI document (console/src/api-reference/openapi-model.ts):
 * every documented operation is shown once under its tag, with the credentials, request and answer fields
 * the document gives it, nested objects flattened to dotted names; the search narrows by every word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../../build/gen-api-reference.ts';
import { matchingOperations, operationsByTag, type OpenApiDocument } from '../../console/src/api-reference/openapi-model.ts';
import { blocksOf } from '../../console/src/api-reference/doc-blocks.ts';

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
const tags = operationsByTag(document);
const all = tags.flatMap((tag) => tag.operations);
const byId = (id: string) => {
  const found = all.find((op) => op.id === id);
  assert.ok(found, id);
  return found;
};

test('every operation of the document once, under the tags in the document order', () => {
  const documented = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  assert.deepEqual(all.map((op) => op.id).sort(), [...documented].sort());
  assert.deepEqual(tags.map((tag) => tag.name), (document.tags ?? []).map((tag) => tag.name));
});

test('an operation with its method, credentials, request and answer fields', () => {
  const login = byId('login');
  assert.equal(login.method, 'POST');
  assert.equal(login.path, '/v1/login');
  assert.deepEqual(login.credentials, []);
  assert.equal(login.request?.name, 'LoginRequest');
  assert.deepEqual(login.request?.fields.find((field) => field.name === 'password'), { name: 'password', type: 'string', required: true, description: undefined, limits: [] });
  assert.equal(login.response.name, 'AuthResponse');
  assert.equal(login.response.fields.find((field) => field.name === 'expires_in')?.type, 'integer (int64)');
  assert.equal(login.response.fields.find((field) => field.name === 'user')?.type, 'User');
  assert.equal(login.response.fields.find((field) => field.name === 'user.roles')?.type, 'string[]');
  assert.equal(login.graphql, 'mutation login');
  assert.equal(login.grpc, 'PublicService.Login');

  const users = byId('users');
  assert.deepEqual(users.credentials.map((c) => [c.kind, c.name]), [['header', 'x-service-admin-secret'], ['cookie', 'service-admin']]);
  assert.deepEqual(byId('profile').credentials.map((c) => c.kind), ['bearer', 'cookie']);
  assert.equal(byId('profile').method, 'GET');
  assert.equal(byId('profile').request, undefined);
  const webhook = byId('add_webhook').request!.fields;
  assert.deepEqual(webhook.find((field) => field.name === 'endpoint')?.limits, [{ kind: 'minLength', value: 1 }, { kind: 'maxLength', value: 2048 }]);
});

test('the search keeps the operations holding every word, in any case', () => {
  const found = matchingOperations(tags, 'ADMIN users').flatMap((tag) => tag.operations.map((op) => op.id));
  assert.ok(found.includes('users'));
  assert.ok(!found.includes('login'));
  assert.deepEqual(matchingOperations(tags, 'no-such-thing'), []);
  assert.equal(matchingOperations(tags, '  ').length, tags.length);
});

test('the overview text splits into headings, lists, code and the error table', () => {
  const blocks = blocksOf(document.info.description ?? '');
  assert.ok(blocks.some((block) => block.kind === 'heading' && block.text === 'The Origin rule (CSRF)'));
  assert.ok(blocks.some((block) => block.kind === 'code' && block.text.includes("-H 'Origin: http://localhost:8080'")));
  const table = blocks.find((block) => block.kind === 'table');
  assert.ok(table && table.kind === 'table');
  assert.deepEqual(table.rows[0], ['Status', '`code`', 'When']);
  assert.ok(table.rows.some((row) => row[0] === '429' && row[1] === '`resource_exhausted`'));
  const list = blocks.find((block) => block.kind === 'list');
  assert.ok(list && list.kind === 'list' && list.items.every((item) => !item.includes('\n')));
});
