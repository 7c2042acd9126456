/**
 * server/idle-collector.ts: one full collection when the event loop was idle over the last interval and the
 * heap grew past the threshold since the last collection; none under load, none while the heap is flat, and
 * nothing at all when no collector is exposed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import { startIdleCollector } from '../../server/idle-collector.ts';
import { runtimeFlags } from '../../build/runtime-flags.ts';

const MiB = 1024 * 1024;

function harness(growthBytes = 16 * MiB) {
  const state = { heap: 100 * MiB, utilization: 0, collected: 0, heapAfterCollection: 40 * MiB };
  const collector = startIdleCollector({
    intervalMs: 5,
    growthBytes,
    collect: () => {
      state.collected += 1;
      state.heap = state.heapAfterCollection;
    },
    heapBytes: () => state.heap,
    utilization: () => state.utilization,
  });
  return { state, collector };
}

test('the garbage of the start is collected at the first idle tick, then a flat heap is left alone', async () => {
  const { state, collector } = harness();
  try {
    await sleep(40);
    assert.equal(state.collected, 1);
    assert.equal(collector.collections, 1);
  } finally {
    collector.stop();
  }
});

test('no collection while the loop is busy, one once it is idle and the heap grew', async () => {
  const { state, collector } = harness();
  try {
    state.utilization = 0.9;
    await sleep(40);
    assert.equal(state.collected, 0, 'busy: V8 collects on its own');
    state.utilization = 0.01;
    await sleep(40);
    assert.equal(state.collected, 1);
    state.heap = 40 * MiB + 15 * MiB;
    await sleep(40);
    assert.equal(state.collected, 1, 'growth under the threshold is left alone');
    state.heap = 40 * MiB + 17 * MiB;
    await sleep(40);
    assert.equal(state.collected, 2);
  } finally {
    collector.stop();
  }
});

test('a heap that shrank on its own lowers the mark the growth is counted from', async () => {
  const { state, collector } = harness();
  try {
    await sleep(40);
    assert.equal(state.collected, 1);
    state.heap = 20 * MiB;
    await sleep(20);
    state.heap = 20 * MiB + 17 * MiB;
    await sleep(40);
    assert.equal(state.collected, 2);
  } finally {
    collector.stop();
  }
});

test('without an exposed collector it does nothing', async () => {
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'this test runs without --expose-gc');
  const collector = startIdleCollector({ intervalMs: 5, heapBytes: () => 1e12, utilization: () => 0 });
  await sleep(30);
  assert.equal(collector.collections, 0);
  collector.stop();
});

/**
 * The last-resort collection shrinks V8's young generation to its floor, and request garbage (which dies
 * young) never grows it back, so every later request paid for scavenges several times as frequent. The
 * executable's flags (sea-config.json, build/runtime-flags.ts) keep that floor at 16 MiB.
 */
test("after a last-resort collection, the executable's flags keep the young generation at 16 MiB or more", () => {
  const probe = `
    let keep = [];
    for (let i = 0; i < 400000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const young = require('node:v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    process.stdout.write(String(young.space_size));`;
  const youngAfter = (flags: string[]) => Number(execFileSync(process.execPath, [...flags, '--expose-gc', '-e', probe], { encoding: 'utf8' }));
  const withoutFloor = runtimeFlags().filter((flag) => !flag.startsWith('--min-semi-space-size'));
  assert.ok(youngAfter(runtimeFlags()) >= 16 * MiB, 'the floor holds');
  assert.ok(youngAfter(withoutFloor) < 16 * MiB, 'without the flag V8 shrinks it below (the probe can tell)');
});
