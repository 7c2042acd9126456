/**
 * The checked-in OpenAPI document of REST /v1 (openapi/portcullis.v1.json) must be exactly what the registry
 * generates, as proto/ must (test/grpc/proto-drift.test.ts), and an outside tool must accept it: a maintained
 * OpenAPI 3.1 validator (@readme/openapi-parser) checks the committed file against the OpenAPI 3.1 schema and
 * its own rules (resolvable $refs, unique operationIds, known security schemes). On a drift failure run
 * `npm run gen` (build/gen-api-reference.ts) and commit the result.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { registry } from '../../server/ops/registry.ts';
import { objectName } from '../../server/ops/schema.ts';
import { HTTP_ERROR_MAP } from '../../server/kernel/errors.ts';
import { openApiText } from '../../server/transports/http/openapi-document.ts';
import { OPENAPI_FILE } from '../../build/gen-api-reference.ts';

type Json = Record<string, any>;

const committedText = readFileSync(OPENAPI_FILE, 'utf8');
const committed = JSON.parse(committedText) as Json;

function operation(path: string, method: string): Json {
  const found = committed.paths[path]?.[method.toLowerCase()];
  assert.ok(found, `no ${method} ${path} in the document`);
  return found;
}

test('openapi/portcullis.v1.json matches the registry', () => {
  assert.equal(committedText, openApiText(registry), 'the checked-in OpenAPI document is stale: run `npm run gen` and commit the result');
});

test('a maintained OpenAPI 3.1 validator accepts the committed document without errors or warnings', async () => {
  assert.match(committed.openapi, /^3\.1\./);
  const result = await validate(JSON.parse(committedText), { validate: { errors: { colorize: false } } });
  assert.ok(result.valid, compileErrors(result));
  assert.deepEqual(result.warnings, [], compileErrors(result));
});

test('the validator refuses a document with a dangling reference (the check has teeth)', async () => {
  const broken = JSON.parse(committedText);
  broken.paths['/v1/login'].post.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchSchema' };
  const result = await validate(broken, { validate: { errors: { colorize: false } } });
  assert.equal(result.valid, false);
});

describe('the document describes every REST operation', () => {
  test('each operation at its method and path, with its input and output schemas; none that REST does not carry', () => {
    const operationIds = Object.values(committed.paths as Json).flatMap((item) => Object.values(item as Json).map((entry) => entry.operationId));
    const documented = new Set<string>();
    for (const op of registry.all) {
      if (!op.restRoute) {
        assert.ok(!operationIds.includes(op.name), `${op.name} is not served over REST`);
        continue;
      }
      const { method, path } = op.restRoute;
      const entry = operation(path, method);
      documented.add(`${method} ${path}`);
      assert.equal(entry.operationId, op.name);
      assert.equal(entry['x-portcullis-graphql'], `${op.kind} ${op.graphqlName}`);
      assert.equal(entry.responses['200'].content['application/json'].schema.$ref, `#/components/schemas/${objectName(op.output)}`);
      const takesInput = Object.keys(op.input.properties).length > 0;
      assert.equal(entry.requestBody?.content['application/json'].schema.$ref, takesInput ? `#/components/schemas/${objectName(op.input)}` : undefined, op.name);
    }
    const inDocument = Object.entries(committed.paths as Json).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    assert.deepEqual(inDocument.sort(), [...documented].sort());
  });

  test('GET only for the reads the server routes with GET', () => {
    const gets = Object.entries(committed.paths as Json).filter(([, item]) => item.get).map(([path]) => path).sort();
    assert.deepEqual(gets, ['/v1/admin/fga/model', '/v1/admin/meta', '/v1/admin/session', '/v1/meta', '/v1/profile']);
  });

  test('credentials: the admin secret header and cookie, bearer token, session cookie and mfa cookie', () => {
    const schemes = committed.components.securitySchemes as Json;
    assert.deepEqual(schemes.admin_secret, { ...schemes.admin_secret, type: 'apiKey', in: 'header', name: 'x-service-admin-secret' });
    assert.deepEqual(schemes.admin_cookie, { ...schemes.admin_cookie, type: 'apiKey', in: 'cookie', name: 'service-admin' });
    assert.deepEqual(schemes.bearer, { ...schemes.bearer, type: 'http', scheme: 'bearer' });
    assert.deepEqual(schemes.session_cookie, { ...schemes.session_cookie, type: 'apiKey', in: 'cookie', name: 'cookie_session' });
    assert.deepEqual(schemes.mfa_cookie, { ...schemes.mfa_cookie, type: 'apiKey', in: 'cookie', name: 'mfa' });
    const schemesOf = (path: string, method = 'POST') => (operation(path, method).security as Json[]).map((r) => Object.keys(r).join('+'));
    assert.deepEqual(schemesOf('/v1/login'), []);
    assert.deepEqual(schemesOf('/v1/profile', 'GET'), ['bearer', 'session_cookie']);
    assert.deepEqual(schemesOf('/v1/admin/users'), ['admin_secret', 'admin_cookie']);
    assert.deepEqual(schemesOf('/v1/skip_mfa_setup'), ['mfa_cookie']);
    assert.deepEqual(schemesOf('/v1/totp_mfa_setup'), ['bearer', 'session_cookie', 'mfa_cookie']);
    assert.deepEqual(schemesOf('/v1/check_permissions'), ['admin_secret', 'admin_cookie', 'bearer', 'session_cookie']);
  });

  test('refusals: the {code, message} envelope with every status of the error table, and the Origin rule', () => {
    const error = committed.components.schemas.Error as Json;
    assert.deepEqual(error.required, ['code', 'message']);
    assert.deepEqual([...error.properties.code.enum].sort(), [...new Set(Object.values(HTTP_ERROR_MAP).map((e) => e.code))].sort());
    const login = operation('/v1/login', 'POST');
    for (const { status, code } of Object.values(HTTP_ERROR_MAP)) {
      assert.equal(login.responses[status].$ref, `#/components/responses/Error${status}`);
      assert.match(committed.components.responses[`Error${status}`].description, new RegExp(`\`${code}\``));
      assert.match(committed.info.description, new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
    }
    assert.ok(committed.components.responses.Error429.headers['Retry-After']);
    assert.ok(committed.components.responses.Error405.headers.Allow);
    assert.match(committed.info.description, /Origin rule/);
    assert.match(committed.info.description, /-H 'Origin: http:\/\/localhost:8080'/);
  });

  test('scalar kinds map to JSON Schema types and formats; Maps are free-form objects', () => {
    const schemas = committed.components.schemas as Json;
    const signUp = schemas.SignUpRequest;
    assert.deepEqual(signUp.properties.app_data, { type: 'object', additionalProperties: true });
    assert.deepEqual(signUp.properties.roles, { type: 'array', items: { type: 'string' } });
    assert.ok(signUp.required.includes('password'));
    assert.deepEqual(schemas.AuthResponse.properties.expires_in, { type: 'integer', format: 'int64' });
    assert.ok(!committedText.includes('x-portcullis"'), 'the server-internal annotations stay out');
    assert.ok(!committedText.includes('patternProperties'));
  });
});
