/** Server metadata: the `meta` operation (docs/operations.md); meta.ts also builds what `admin_meta` answers. */
import { defineModule } from '../manifest.ts';
import { metaOperations } from './meta.ops.ts';

export { metaOperations };
export { AdminMeta, buildAdminMeta } from './meta.ts';
export const metaModule = defineModule({ name: 'meta', operations: metaOperations });
