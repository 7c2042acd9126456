/**
 * rotate_client_secret says until when the replaced secret keeps working
 * (docs/api-overview.md#states-and-transitions, "Client secret valid | rotate_client_secret"): previous_secret_expires_at is the rotation time plus
 * --client-secret-rotation-grace, in Unix seconds, alike over REST, GraphQL and gRPC, so the console can tell
 * the admin how long relying parties have to switch. create_client answers none, nor does a rotation with a
 * grace of 0 (the old secret stopped at once).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';

const NOW = new Date(Date.UTC(2026, 1, 1, 12, 0, 0));
const NOW_SECONDS = NOW.getTime() / 1000;
const GRACE_SECONDS = 3600;

describe('rotate_client_secret answers the end of the grace window', () => {
  const { over } = adminProtocolsOnServer(['--client-secret-rotation-grace', String(GRACE_SECONDS)], { clock: { now: () => NOW } });

  test('rotation time plus the grace, on every protocol; create answers none', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const created = await over(protocol, 'create_client', { name: `grace via ${protocol}` });
      assert.equal(created.previous_secret_expires_at, undefined, `${protocol}: nothing was replaced at create`);
      const rotated = await over(protocol, 'rotate_client_secret', { id: created.client.id });
      assert.equal(Number(rotated.previous_secret_expires_at), NOW_SECONDS + GRACE_SECONDS, protocol);
    }
  });
});

describe('rotate_client_secret with a grace of 0', () => {
  const { over } = adminProtocolsOnServer(['--client-secret-rotation-grace', '0'], { clock: { now: () => NOW } });

  test('answers no end time: the old secret stopped at once', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const created = await over(protocol, 'create_client', { name: `no grace via ${protocol}` });
      const rotated = await over(protocol, 'rotate_client_secret', { id: created.client.id });
      assert.equal(rotated.previous_secret_expires_at, undefined, protocol);
      assert.match(rotated.client_secret, /^[A-Za-z0-9_-]{43}$/, protocol);
    }
  });
});
