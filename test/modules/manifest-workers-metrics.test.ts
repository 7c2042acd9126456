/**
 * What buildApp drives from the module manifests (docs/architecture.md#adding-a-module): workers created with
 * their options by name, started in module order and stopped in reverse, one reachable from Deps; metrics
 * registered from the declarations, each name once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModuleWorkers, MODULES } from '../../server/modules/index.ts';
import { defineModule, defineWorker, type Worker } from '../../server/modules/manifest.ts';
import { defineMetric } from '../../server/kernel/metrics.ts';
import type { Deps } from '../../server/kernel/deps.ts';
import { createHttpMetrics } from '../../server/transports/http/metrics.ts';

function recordingWorker(name: string, log: string[], options: object): Worker & { options: object; wake(): void } {
  return {
    options,
    start: () => void log.push(`start ${name}`),
    wake: () => undefined,
    idle: async () => undefined,
    stop: async () => void log.push(`stop ${name}`),
  };
}

test('workers: options by name, module order to start, reverse to stop, depsKey exposes one to Deps', async () => {
  const log: string[] = [];
  const first = defineModule({ name: 'first', workers: [defineWorker({ name: 'a', depsKey: 'outbox', create: (options: { pollMs?: number }) => recordingWorker('a', log, options) })] });
  const second = defineModule({ name: 'second', workers: [defineWorker({ name: 'b', create: (options: object) => recordingWorker('b', log, options) })] });
  const workers = createModuleWorkers({ a: { pollMs: 5 } }, [first, second]);
  const a = workers.named<ReturnType<typeof recordingWorker>>('a');
  assert.deepEqual(a.options, { pollMs: 5 });
  assert.deepEqual(workers.named<ReturnType<typeof recordingWorker>>('b').options, {});
  assert.equal(workers.depsMembers.outbox, a);
  workers.start({} as Deps);
  await workers.stop();
  assert.deepEqual(log, ['start a', 'start b', 'stop b', 'stop a']);
  assert.throws(() => workers.named('c'), /no module declares a worker named c/);
});

test('workers: two of one name are refused', () => {
  const twice = defineModule({ name: 'twice', workers: [1, 2].map(() => defineWorker({ name: 'same', create: (options: object) => recordingWorker('same', [], options) })) });
  assert.throws(() => createModuleWorkers({}, [twice]), /two workers named same/);
});

test('the real manifests declare the outbox (reachable as Deps.outbox), webhook and back-channel logout delivery, the expiry sweeps and the retention sweeps', () => {
  const declared = MODULES.flatMap((module) => module.workers.map((worker) => `${module.name}: ${worker.name}${worker.depsKey ? ` as Deps.${worker.depsKey}` : ''}`));
  assert.deepEqual(declared, [
    'accounts: outbox as Deps.outbox', 'admin: admin-session-sweep', 'tokens: expiry-sweep', 'verification: verification-sweep',
    'oauth: par-sweep', 'backchannel-logout: backchannel-logout', 'mfa: mfa-challenge-sweep',
    'webauthn: webauthn-challenge-sweep', 'audit: audit-retention', 'webhooks: webhooks', 'webhooks: webhook-retention', 'saml-idp: saml-pending-login-sweep',
  ]);
});

test('metrics: every declaration is registered on the metrics registry, a name declared twice is refused', async () => {
  const metrics = createHttpMetrics();
  const exposed = await metrics.registry.metrics();
  for (const declaration of MODULES.flatMap((module) => module.metrics)) {
    assert.match(exposed, new RegExp(`# TYPE ${declaration.name} ${declaration.kind}\\n`), declaration.name);
  }
  const counter = defineMetric({ name: 'portcullis_test_total', help: 'test', kind: 'counter', labels: [] });
  const twice = [defineModule({ name: 'one', metrics: [counter] }), defineModule({ name: 'two', metrics: [counter] })];
  assert.throws(() => createHttpMetrics([...MODULES, ...twice]), /declared twice/);
  // A Metrics method whose declaration no module makes is a wiring mistake found at start.
  assert.throws(() => createHttpMetrics([]), /no module declares/);
});
