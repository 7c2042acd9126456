/** Super-admin sessions (specification part 4.2 and part 5): their operations and their AdminSession rows. */
import { defineModule } from '../manifest.ts';
import { AdminSession } from './admin-session.entity.ts';
import { adminOperations } from './admin.ops.ts';

export { adminOperations };
export const adminModule = defineModule({ name: 'admin', entities: [AdminSession], operations: adminOperations });
