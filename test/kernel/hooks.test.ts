/**
 * Module hooks (server/kernel/hooks.ts): handlers run one after another in subscription order, a handler
 * subscribed twice (buildApp runs once per test server) runs once, a required hook without a subscriber
 * refuses to run instead of skipping its part, and the module manifests list the handlers buildApp wires.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineHook, subscription } from '../../server/kernel/hooks.ts';
import { MODULES, wireModuleHooks } from '../../server/modules/index.ts';

test('handlers run in subscription order, each once, and see the arguments', async () => {
  const hook = defineHook<[calls: string[], id: string]>('test.order');
  const first = async (calls: string[], id: string) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    calls.push(`first ${id}`);
  };
  const second = (calls: string[], id: string) => void calls.push(`second ${id}`);
  hook.subscribe(first);
  hook.subscribe(second);
  hook.subscribe(first);
  const calls: string[] = [];
  await hook.run(calls, 'u1');
  assert.deepEqual(calls, ['first u1', 'second u1']);
});

test('a required hook without a subscriber refuses to run; an optional one does nothing', async () => {
  await assert.rejects(defineHook<[]>('test.required', { required: true }).run(), /hook test\.required has no subscriber/);
  await defineHook<[]>('test.optional').run();
});

test('a failing handler fails the run, so the caller rolls its transaction back', async () => {
  const hook = defineHook<[]>('test.failing');
  hook.subscribe(() => {
    throw new Error('handler failed');
  });
  await assert.rejects(hook.run(), /handler failed/);
});

test('a subscription names its hook and subscribes when wired', async () => {
  const hook = defineHook<[calls: string[]]>('test.wired', { required: true });
  const wired = subscription(hook, (calls) => void calls.push('ran'));
  assert.equal(wired.hook, 'test.wired');
  wired.subscribe();
  const calls: string[] = [];
  await hook.run(calls);
  assert.deepEqual(calls, ['ran']);
});

test("the modules' manifests name their handlers for the module hooks, and wiring twice is harmless", () => {
  const wired = MODULES.flatMap((module) => module.hooks.map((hook) => `${module.name}: ${hook.hook}`)).sort();
  assert.deepEqual(wired, [
    'backchannel-logout: onAccountErased',
    'backchannel-logout: onSessionsEnded',
    'device-grant: onAccountErased',
    'device-grant: onAccountTakeover',
    'mfa: onAdminMfaReset',
    'oauth: onAccountErased',
    'oauth: onAccountTakeover',
    'oauth: onPersonalDataExport',
    'org-sso: onAccountErased',
    'org-sso: onAccountTakeover',
    'org-sso: onPersonalDataExport',
    'scim: onUserLeftAllOrganizations',
    'social: onAccountErased',
    'social: onAccountTakeover',
    'social: onPersonalDataExport',
    'tokens: onSessionRevoked',
    'webauthn: onAccountErased',
    'webauthn: onMfaReset',
    'webauthn: onPersonalDataExport',
  ]);
  wireModuleHooks();
  wireModuleHooks();
});
