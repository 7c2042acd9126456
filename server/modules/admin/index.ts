/** Super-admin sessions (docs/operations.md and docs/api-overview.md#authentication): their operations and their AdminSession rows. */
import { defineModule } from '../manifest.ts';
import { AdminSession } from './admin-session.entity.ts';
import { adminOperations } from './admin.ops.ts';

export { adminOperations };
export { ADMIN_COOKIE, adminAuthenticator, adminCredentialsPresented } from './admin.service.ts';
export const adminModule = defineModule({ name: 'admin', entities: [AdminSession], operations: adminOperations });
