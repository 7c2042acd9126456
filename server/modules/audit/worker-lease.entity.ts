import { defineEntity, p } from '@mikro-orm/core';

/**
 * A named lease that lets one instance of a fleet run a periodic job while the others skip it
 * (docs/architecture.md#background-workers: several instances over one database behave as one server).
 * One row per job, claimed by one conditional update (or the insert of the first claim) and held until
 * `leaseUntil`; a holder that died loses it when that time passes. The retention sweeps use it
 * (retention-sweeper.ts).
 */
export const WorkerLease = defineEntity({
  name: 'WorkerLease',
  tableName: 'worker_leases',
  properties: {
    /** The job's name (`audit-retention`, `webhook-retention`); `id` so that MongoDB maps it to `_id`. */
    id: p.string().primary().length(64),
    /** A random id of the instance holding the lease. */
    holder: p.string().length(36),
    leaseUntil: p.datetime(),
  },
});

export type WorkerLeaseRow = InstanceType<typeof WorkerLease.class>;
