/** What the sign-in policy counts (docs/identity-boundary.md#one-sign-in-policy-point): password logins by outcome. */
import { defineMetric } from '../../kernel/metrics.ts';

/** Metrics.login: counted by login-flow.ts, and by the federated callbacks on success. */
export const LOGINS_METRIC = defineMetric({
  name: 'portcullis_logins_total',
  help: 'Password logins by outcome: success, failure (wrong password or unknown account), locked',
  kind: 'counter',
  labels: ['outcome'],
});
