/**
 * The background sweeps of the other expiring tables, run by the retention sweeper like the token sweep
 * (tokens/expiry-sweep.ts), on SQLite, PostgreSQL and MariaDB with an injected clock: admin sessions
 * (admin/admin-session-sweep.ts), WebAuthn ceremonies (webauthn/challenge-sweep.ts), MFA challenges
 * (mfa/challenge-sweep.ts), SAML pending sign-ins (saml-idp/pending-login-sweep.ts), verification requests
 * and one-time codes (verification/expiry-sweep.ts), pushed authorization requests never used
 * (oauth/pushed-request-sweep.ts). Each deletes exactly its expired rows, live ones stay,
 * no statement deletes more than one batch, and of two instances only one sweeps at a time.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EntityName } from '@mikro-orm/core';
import type { Deps } from '../../server/kernel/deps.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import { WorkerLease, createRetentionWorker, type RetentionTask } from '../../server/modules/audit/index.ts';
import { AdminSession } from '../../server/modules/admin/admin-session.entity.ts';
import { expiredAdminSessionsTask, createAdminSessionSweepWorker } from '../../server/modules/admin/admin-session-sweep.ts';
import { WebauthnChallenge } from '../../server/modules/webauthn/webauthn-challenge.entity.ts';
import { expiredWebauthnChallengesTask } from '../../server/modules/webauthn/challenge-sweep.ts';
import { MfaChallenge } from '../../server/modules/mfa/mfa-challenge.entity.ts';
import { expiredMfaChallengesTask } from '../../server/modules/mfa/challenge-sweep.ts';
import { SamlIdpPendingLogin } from '../../server/modules/saml-idp/sso-state.entities.ts';
import { expiredSamlPendingLoginsTask } from '../../server/modules/saml-idp/pending-login-sweep.ts';
import { VerificationRequest } from '../../server/modules/verification/verification-request.entity.ts';
import { Otp } from '../../server/modules/verification/otp.entity.ts';
import { expiredOtpsTask, expiredVerificationRequestsTask } from '../../server/modules/verification/expiry-sweep.ts';
import { PushedAuthorizationRequest } from '../../server/modules/oauth/pushed-request.entity.ts';
import { expiredPushedRequestsTask } from '../../server/modules/oauth/pushed-request-sweep.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';

const MINUTE_MS = 60_000;
const NOW = new Date(Date.UTC(2026, 5, 1, 12));
const at = (minutes: number) => new Date(NOW.getTime() + minutes * MINUTE_MS);
const FAST = { batchSize: 3, pauseMs: 0 };
const id = (tag: string) => `${tag}-${randomUUID()}`.slice(0, 36);

function depsAt(storage: Storage): Deps {
  return { storage, config: configFor([]), clock: { now: () => new Date(NOW) }, logger: silentLogger } as unknown as Deps;
}

interface Table {
  readonly entity: EntityName<{ id: string }>;
  readonly task: RetentionTask;
  readonly row: (rowId: string, expiresAt: Date) => Record<string, unknown>;
}

const TABLES: Table[] = [
  { entity: AdminSession as never, task: expiredAdminSessionsTask, row: (rowId, expiresAt) => ({ id: rowId, expiresAt, createdAt: at(-120), loginAt: at(-120) }) },
  {
    entity: WebauthnChallenge as never, task: expiredWebauthnChallengesTask,
    row: (rowId, expiresAt) => ({ id: rowId, kind: 'authentication', userId: null, mfaChallengeId: null, userVerification: 'preferred', expiresAt, createdAt: at(-120) }),
  },
  {
    entity: MfaChallenge as never, task: expiredMfaChallengesTask,
    row: (rowId, expiresAt) => ({ id: rowId, userId: randomUUID(), stage: 'verify', roles: ['user'], scope: ['openid'], loginMethod: 'basic_auth', nonce: null, attempts: 0, expiresAt, createdAt: at(-120) }),
  },
  {
    entity: SamlIdpPendingLogin as never, task: expiredSamlPendingLoginsTask,
    row: (rowId, expiresAt) => ({ id: rowId, orgId: randomUUID(), serviceProviderId: randomUUID(), requestId: null, acsUrl: 'https://sp.example/acs', relayState: null, authAfter: null, expiresAt, createdAt: at(-120) }),
  },
  {
    entity: VerificationRequest as never, task: expiredVerificationRequestsTask,
    row: (rowId, expiresAt) => ({ id: rowId, tokenHash: randomUUID().replace(/-/g, ''), identifier: 'basic_auth_signup', email: `${rowId}@example.com`, userId: null, expiresAt, nonce: 'n', redirectUri: null, createdAt: at(-120), updatedAt: at(-120), usedAt: null }),
  },
  {
    entity: Otp as never, task: expiredOtpsTask,
    row: (rowId, expiresAt) => ({ id: rowId, purpose: 'verify_email', userId: null, email: `${rowId}@example.com`, phoneNumber: null, codeDigest: 'digest', attempts: 0, expiresAt, createdAt: at(-120), updatedAt: at(-120), usedAt: null }),
  },
  {
    entity: PushedAuthorizationRequest as never, task: expiredPushedRequestsTask,
    row: (rowId, expiresAt) => ({ id: rowId, clientId: 'pushing-client', params: { response_type: 'code' }, createdAt: at(-120), opened: false, expiresAt }),
  },
];

/** Wraps a task to count the rows each batch deleted. */
function counted(task: RetentionTask, batches: number[]): RetentionTask {
  return { ...task, pruneBatch: async (em, cutoff, limit, after) => {
    const batch = await task.pruneBatch(em, cutoff, limit, after);
    batches.push(batch.deleted);
    return batch;
  } };
}

for (const kind of ['sqlite', 'postgres', 'mariadb'] as const) {
  describe(`expiry sweeps of admin sessions, challenges, pending sign-ins, links and codes on ${kind}`, () => {
    let db: TestDatabase;
    let storage: Storage;
    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openStorage(configFor(db.flags), [...TABLES.map((t) => t.entity), WorkerLease] as never, silentLogger, { migrations: [] });
    });
    after(async () => {
      await storage?.close();
      await db?.cleanup();
    });

    for (const table of TABLES) {
      test(`${table.task.name}: expired rows go in batches of at most the batch size, live ones stay`, async () => {
        const em = storage.fork();
        await em.nativeDelete(table.entity, {});
        // Seven expired rows, two sharing one instant (the cursor steps over ties by id), one a moment ago.
        const expired = [...Array.from({ length: 5 }, (_, i) => table.row(id(`old${i}`), at(-1 - i * 7))), table.row(id('tie'), at(-1)), table.row(id('now'), at(-0.001))];
        const live = [table.row(id('live'), at(1)), table.row(id('later'), at(24 * 60))];
        await em.insertMany(table.entity, [...expired, ...live] as never);
        const batches: number[] = [];
        const worker = createRetentionWorker(`sweep-test-${table.task.name}`, [counted(table.task, batches)], FAST);
        worker.start(depsAt(storage));
        assert.deepEqual(await worker.runNow(), { [table.task.name]: 7 });
        await worker.stop();
        assert.deepEqual(batches, [3, 3, 1], 'no statement deletes more than a batch');
        const left = (await storage.fork().find(table.entity, {})).map((row) => row.id).sort();
        assert.deepEqual(left, live.map((row) => row.id as string).sort());
      });
    }

    test('of two instances one sweeps at a time', async () => {
      const em = storage.fork();
      await em.nativeDelete(AdminSession, {});
      await em.insertMany(AdminSession, [TABLES[0]!.row(id('a'), at(-5)), TABLES[0]!.row(id('b'), at(-6))] as never);
      const first = createAdminSessionSweepWorker(FAST);
      const second = createAdminSessionSweepWorker(FAST);
      first.start(depsAt(storage));
      second.start(depsAt(storage));
      assert.deepEqual(await first.runNow(), { admin_sessions: 2 });
      assert.deepEqual(await second.runNow(), {}, 'the lease is the first instance\'s');
      await first.stop();
      await second.stop();
    });
  });
}
