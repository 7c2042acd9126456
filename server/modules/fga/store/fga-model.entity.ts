import { defineEntity, p } from '@mikro-orm/core';
import type { AuthorizationModel } from '../types.ts';

/**
 * One version of the FGA authorization model (docs/operations.md: versioned and append-only; the newest is
 * current). `id` is a sortable id (sortable-id.ts), so the current model is the greatest id; `dsl` is
 * what the administrator wrote and `model` the validated JSON the engine reads.
 */
export const FgaModel = defineEntity({
  name: 'FgaModel',
  tableName: 'fga_models',
  properties: {
    id: p.string().primary().length(26),
    dsl: p.text(),
    model: p.json<AuthorizationModel>(),
    createdAt: p.datetime(),
  },
});

export type FgaModelRow = InstanceType<typeof FgaModel.class>;
