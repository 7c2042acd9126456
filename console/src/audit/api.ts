/**
 * The audit log's server call (docs/operations.md; docs/api-overview.md#resources-and-fields, "AuditLog" and `_audit_logs`): filters by
 * actor, action, resource type and id and an inclusive window of Unix seconds, paginated, newest first
 * (server/modules/audit/audit-logs.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { PageRequest } from '../api/types.ts';

export type AuditEntry = Output<'audit_logs'>['audit_logs'][number];

/** Who, what and when to filter by (timestamps are Unix seconds, inclusive). */
export type AuditFilters = Omit<Input<'audit_logs'>, 'pagination'>;

export const auditKeys = { all: ['audit-logs'] as const };

export function useAuditLogs(filters: AuditFilters, page: PageRequest) {
  return useQuery({
    queryKey: [...auditKeys.all, filters, page],
    queryFn: ({ signal }) => call('audit_logs', { ...filters, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}
