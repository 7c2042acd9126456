/**
 * What a request does not need is not loaded at start (GraphQL schema building and
 * gRPC proto loading are lazy). A child process records every module Node loads while a server starts
 * (test/support/loaded-at-start.ts). None of these may be among them: graphql-js, mercurius, protobufjs and
 * @grpc/proto-loader (first GraphQL request, first gRPC call), OpenFGA's model parser (first model write),
 * ajv (no route declares a Fastify schema), nodemailer (first mail), @simplewebauthn/server (first passkey
 * ceremony), the SAML identity provider's xml-crypto, xmldom and @peculiar/x509 (first SAML IdP use) and the
 * CEL evaluator of FGA conditions with its RE2 and protobuf runtime (first condition, engine/cel-loader.ts). graphql-js and mercurius must be there once a first GraphQL request was served (the recording
 * itself works). The bundle keeps the same
 * import structure: esbuild lowers the lazy imports to requires.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(import.meta.dirname, '..', 'support', 'loaded-at-start.ts');
const LAZY = ['/node_modules/graphql/', '/node_modules/mercurius/', '/node_modules/protobufjs/', '/node_modules/@grpc/proto-loader/', '/node_modules/@openfga/syntax-transformer/', '/node_modules/ajv/', '/node_modules/nodemailer/', '/node_modules/@simplewebauthn/',
  // The SAML identity provider's XML signer and parser and its certificate maker (modules/saml-idp).
  '/node_modules/xml-crypto/', '/node_modules/@xmldom/', '/node_modules/@peculiar/x509/', '/node_modules/reflect-metadata/',
  // FGA conditions' CEL evaluator (modules/fga/engine/cel-loader.ts).
  '/node_modules/@bufbuild/cel/', '/node_modules/@bufbuild/re2/', '/node_modules/@bufbuild/protobuf/'];

function loadedModules(args: string[] = []): string[] {
  const stdout = execFileSync(process.execPath, [CHILD, ...args], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
}

test('a started server has loaded neither GraphQL nor the gRPC codecs', () => {
  const loaded = loadedModules();
  assert.ok(loaded.some((url) => url.includes('/node_modules/fastify/')), 'the recording saw the server start');
  for (const lazy of LAZY) assert.deepEqual(loaded.filter((url) => url.includes(lazy)), [], `${lazy} loaded at start`);
});

test('the first GraphQL request loads graphql-js and mercurius', () => {
  const loaded = loadedModules(['--first-requests']);
  for (const lazy of LAZY.slice(0, 2)) assert.ok(loaded.some((url) => url.includes(lazy)), `${lazy} not loaded by a GraphQL request`);
});
