/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/openid-connect-clients.md#back-channel-logout): clients register a
 * backchannel_logout_uri; when a session ends (sessions' onSessionsEnded), each client that got tokens in it
 * is sent a logout token through a durable outbox with retries (worker.ts).
 */
import { defineModule, defineWorker } from '../../manifest.ts';
import { subscription } from '../../../kernel/hooks.ts';
import { onSessionsEnded } from '../../sessions/index.ts';
import { onAccountErased } from '../../accounts/index.ts';
import { eraseBackchannelRows } from './personal-data.ts';
import { BackchannelLogoutDelivery, SessionClient } from './backchannel.entity.ts';
import { backchannelAdminOperations } from './backchannel-admin.ops.ts';
import { queueBackchannelLogouts } from './session-clients.ts';
import { createBackchannelWorker, type BackchannelWorker, type BackchannelWorkerOptions } from './worker.ts';

export { rememberSessionClient } from './session-clients.ts';
export type { BackchannelWorkerOptions } from './worker.ts';

export const backchannelLogoutModule = defineModule({
  name: 'backchannel-logout',
  // A client's registration (BackchannelLogoutClient) is the client registry's (clients/client-grant-settings.entity.ts).
  entities: [SessionClient, BackchannelLogoutDelivery],
  operations: backchannelAdminOperations,
  hooks: [subscription(onSessionsEnded, queueBackchannelLogouts), subscription(onAccountErased, eraseBackchannelRows)],
  workers: [defineWorker<BackchannelWorker, BackchannelWorkerOptions>({ name: 'backchannel-logout', create: createBackchannelWorker })],
});
