/** Server metadata: the `meta` operation (specification part 4.1); meta.ts also builds what `admin_meta` answers. */
import { defineModule } from '../manifest.ts';
import { metaOperations } from './meta.ops.ts';

export { metaOperations };
export const metaModule = defineModule({ name: 'meta', operations: metaOperations });
