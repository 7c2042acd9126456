/** Shared steps of the webhook tests: an admin REST client, a signed-up user, a registered webhook. */
import assert from 'node:assert/strict';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import type { AppOverrides } from '../../server/app.ts';

export const PASSWORD = 'Webhook-Test-Pa55!';
export const ALLOW_PRIVATE = ['--webhook-allow-private-addresses=true'];
/** Fast worker timing for in-process tests: the backoff is real, only shorter. */
export const FAST: AppOverrides = { webhooks: { pollMs: 50, retryBaseMs: 100, retryMaxMs: 400, timeoutMs: 2000 } };

export function startWebhookServer(extra: string[] = ALLOW_PRIVATE, overrides: AppOverrides = FAST): Promise<TestServer> {
  return startServer(extra, overrides);
}

export function admin(server: TestServer) {
  const api = restClient(server, { 'x-service-admin-secret': ADMIN_SECRET });
  return {
    call: (name: string, body: unknown = {}) => api.post(`/v1/admin/${name}`, body),
    async ok(name: string, body: unknown = {}) {
      const reply = await api.post(`/v1/admin/${name}`, body);
      assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
  };
}

export async function signUp(server: TestServer, email: string): Promise<{ id: string }> {
  const reply = await restClient(server).post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.user;
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
