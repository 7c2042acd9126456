/** What webhook delivery counts (docs/events.md): attempts by outcome, and the work waiting. */
import { defineMetric } from '../../kernel/metrics.ts';

/** Metrics.webhookDelivery: one per attempt, counted by worker.ts. */
export const WEBHOOK_DELIVERIES_METRIC = defineMetric({
  name: 'portcullis_webhook_deliveries_total',
  help: 'Webhook delivery attempts by event and outcome: delivered (2xx), retry (failed, scheduled again), failed (given up)',
  kind: 'counter',
  labels: ['event', 'outcome'],
});

/** Metrics.webhookBacklog: read on each scrape from the probe worker.ts registers at start. */
export const WEBHOOK_BACKLOG_METRIC = defineMetric({
  name: 'portcullis_webhook_backlog',
  help: 'Webhook work waiting: events not yet fanned out (queue=events), deliveries pending or in flight (queue=deliveries)',
  kind: 'gauge',
  labels: ['queue'],
});
