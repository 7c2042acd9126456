/**
 * The audit log's filters as they live in the URL (?actor=&action=&rtype=&rid=&from=&to=&page=), so a
 * filtered view can be shared and survives a reload. The dates are `datetime-local` values in the
 * browser's time zone; both bounds are inclusive, as the server's are (audit-logs.ops.ts).
 */
import type { AuditFilters } from './api.ts';

export interface FilterValues {
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  /** `YYYY-MM-DDTHH:mm` or `YYYY-MM-DDTHH:mm:ss`, local time. */
  from: string;
  to: string;
}

const PARAMS: Record<keyof FilterValues, string> = {
  actor: 'actor',
  action: 'action',
  resourceType: 'rtype',
  resourceId: 'rid',
  from: 'from',
  to: 'to',
};

export function filterValuesOf(params: URLSearchParams): FilterValues {
  const entries = Object.entries(PARAMS).map(([key, param]) => [key, params.get(param) ?? '']);
  return Object.fromEntries(entries) as FilterValues;
}

export function searchParamsOf(values: FilterValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, param] of Object.entries(PARAMS)) {
    const value = values[key as keyof FilterValues].trim();
    if (value) params.set(param, value);
  }
  return params;
}

/**
 * Unix seconds of a local date-time, or undefined when empty or invalid. A value given to the minute is, as
 * an upper bound, the whole minute: "to 10:15" includes 10:15:59.
 */
export function secondsOf(value: string, upper: boolean): number | undefined {
  if (!value) return undefined;
  const millis = new Date(value).getTime();
  if (Number.isNaN(millis)) return undefined;
  const seconds = Math.floor(millis / 1000);
  const toTheMinute = /T\d{2}:\d{2}$/.test(value);
  return upper && toTheMinute ? seconds + 59 : seconds;
}

export function auditFiltersOf(values: FilterValues): AuditFilters {
  const filters: AuditFilters = {};
  if (values.actor.trim()) filters.actor_id = values.actor.trim();
  if (values.action.trim()) filters.action = values.action.trim();
  if (values.resourceType.trim()) filters.resource_type = values.resourceType.trim();
  if (values.resourceId.trim()) filters.resource_id = values.resourceId.trim();
  const from = secondsOf(values.from, false);
  const to = secondsOf(values.to, true);
  if (from !== undefined) filters.from_timestamp = from;
  if (to !== undefined) filters.to_timestamp = to;
  return filters;
}
