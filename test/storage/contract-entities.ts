/** An entity used only by the storage contract suite; it follows the conventions of server/storage/types.ts. */
import { defineEntity, p } from '@mikro-orm/core';
import { ENTITIES } from '../../server/modules/entities.ts';

export const Gadget = defineEntity({
  name: 'Gadget',
  tableName: 'contract_gadgets',
  properties: {
    id: p.string().primary().length(64),
    code: p.string().length(64).unique(),
    email: p.string().length(255),
    displayName: p.string().length(255).nullable(),
    count: p.integer(),
    madeAt: p.datetime(),
    data: p.json<{ tags: string[] }>().nullable(),
  },
});

export const CONTRACT_ENTITIES = [...ENTITIES, Gadget];
