/** Super-admin sessions (docs/operations.md and docs/api-overview.md#authentication): their operations and their AdminSession rows. */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createAdminSessionSweepWorker } from './admin-session-sweep.ts';
import { AdminSession } from './admin-session.entity.ts';
import { adminOperations } from './admin.ops.ts';

export { adminOperations };
export { ADMIN_COOKIE, adminAuthenticator, adminCredentialsPresented } from './admin.service.ts';
export const adminModule = defineModule({
  name: 'admin',
  entities: [AdminSession],
  operations: adminOperations,
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'admin-session-sweep', create: createAdminSessionSweepWorker })],
});
