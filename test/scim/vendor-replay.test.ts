/**
 * Replays of the request sequences Microsoft Entra ID and Okta send over a user's and a group's life
 * (entra-id-sequence.json, okta-sequence.json: request shapes after each vendor's public SCIM documentation),
 * each step checked for its status and the parts of the answer named in the file; `absent` lists attributes
 * that must not be in the answer. While the Entra ID group has its member, its name is an org role of that member.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../support/app.ts';
import { OrgMember } from '../../server/modules/organizations/index.ts';
import { orgWithScim, scimClient } from './support.ts';

interface Step {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  expect: { status: number; body?: unknown; absent?: string[] };
  save?: Record<string, string>;
}

function fill(value: unknown, saved: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => saved[name] ?? assert.fail(`nothing saved as ${name}`));
  if (Array.isArray(value)) return value.map((v) => fill(v, saved));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, saved)]));
  return value;
}

/** `expected` is contained in `actual`: objects by their named keys, arrays element by element and of the same length. */
function assertContains(actual: unknown, expected: unknown, where: string): void {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => assertContains(actual[i], e, `${where}[${i}]`));
  } else if (expected && typeof expected === 'object') {
    assert.ok(actual && typeof actual === 'object', `${where}: expected an object, got ${JSON.stringify(actual)}`);
    for (const [key, e] of Object.entries(expected)) assertContains((actual as Record<string, unknown>)[key], e, `${where}.${key}`);
  } else {
    assert.deepEqual(actual, expected, where);
  }
}

for (const [vendor, file] of [['Entra ID', 'entra-id-sequence.json'], ['Okta', 'okta-sequence.json']] as const) {
  describe(`${vendor} request sequence`, () => {
    let server: TestServer;
    let org: { orgId: string; token: string };
    const scim = scimClient(() => server, () => org.token);
    before(async () => {
      server = await startServer();
      org = await orgWithScim(server, ['contoso.example', 'example.net']);
    });
    after(async () => server?.close());

    test('every step answers as the provider expects', async () => {
      const { steps } = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { steps: Step[] };
      const saved: Record<string, string> = {};
      for (const step of steps) {
        const answer = await scim(step.method, fill(step.path, saved) as string, step.body === undefined ? undefined : fill(step.body, saved));
        assert.equal(answer.status, step.expect.status, `${step.name}: ${JSON.stringify(answer.body)}`);
        if (step.expect.body !== undefined) assertContains(answer.body, fill(step.expect.body, saved), step.name);
        for (const name of step.expect.absent ?? []) assert.equal(answer.body?.[name], undefined, `${step.name}: ${name} must not be answered`);
        for (const [name, key] of Object.entries(step.save ?? {})) saved[name] = String(answer.body[key]);
        if (step.name === 'check the membership') {
          const member = await server.app.deps.storage.fork().findOne(OrgMember, { orgId: org.orgId, userId: saved.userId });
          assert.deepEqual(member?.roles, ['Finance Team'], 'the group is an org role of its member');
        }
      }
    });
  });
}
