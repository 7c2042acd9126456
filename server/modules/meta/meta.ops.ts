import { defineOperation } from '../../ops/define.ts';
import { NoInput } from '../../ops/schema.ts';
import { Meta, buildMeta } from './meta.ts';
import { orgDiscoveryEnabled } from '../org-sso/index.ts';

/** GET /v1/meta (docs/operations.md): the feature flags clients use to draw their login screens. */
export const metaOp = defineOperation({
  name: 'meta',
  admin: false,
  kind: 'query',
  description: 'Server feature flags and provider availability',
  input: NoInput,
  output: Meta,
  auth: 'public',
  rest: { method: 'GET' },
  handler: async (_input, ctx) => buildMeta(ctx.deps.config, ctx.deps.version, await orgDiscoveryEnabled(ctx.deps)),
});

export const metaOperations = [metaOp];
