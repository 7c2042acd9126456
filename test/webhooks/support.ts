/** Shared steps of the webhook tests: an admin REST client, a signed-up user, a registered webhook. */
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import type { AppOverrides } from '../../server/app.ts';

export const PASSWORD = 'Webhook-Test-Pa55!';
export const ALLOW_PRIVATE = ['--webhook-allow-private-addresses=true'];
/** Fast worker timing for in-process tests: the backoff is real, only shorter. */
export const FAST: AppOverrides = { webhooks: { pollMs: 50, retryBaseMs: 100, retryMaxMs: 400, timeoutMs: 2000 } };

export function startWebhookServer(extra: string[] = ALLOW_PRIVATE, overrides: AppOverrides = FAST): Promise<TestServer> {
  return startServer(extra, overrides);
}

/** The super-admin over REST: `call` answers status and body, `ok` asserts 200 (test/support/admin-client.ts). */
export const admin = (server: TestServer) => adminClient(server);

export async function signUp(server: TestServer, email: string): Promise<{ id: string }> {
  return { id: (await signedUpUser(server, { email, password: PASSWORD })).userId };
}

/** Adds a webhook and answers its id (add_webhook answers {message} only, docs/operations.md#add_webhook). */
export async function addWebhook(server: TestServer, fields: Record<string, unknown>): Promise<string> {
  const api = admin(server);
  await api.ok('add_webhook', { enabled: true, ...fields });
  const list = await api.ok('webhooks', { pagination: { limit: 100 } });
  const found = list.webhooks.find((w: { endpoint: string; event_name: string }) => w.endpoint === fields.endpoint && w.event_name === fields.event_name);
  assert.ok(found, 'the new webhook is listed');
  return found.id;
}
