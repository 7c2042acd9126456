import { defineEntity, p } from '@mikro-orm/core';

/** One applied data migration (run-migrations.ts). Storage's own entity, added by openStorage. */
export const MigrationRecord = defineEntity({
  name: 'MigrationRecord',
  tableName: 'portcullis_migrations',
  properties: {
    id: p.string().primary().length(100),
    appliedAt: p.datetime(),
  },
});
