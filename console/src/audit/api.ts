/**
 * The audit log's server call (specification part 4.2; reference.md "AuditLog" and `_audit_logs`): filters by
 * actor, action, resource type and id and an inclusive window of Unix seconds, paginated, newest first
 * (server/modules/audit/audit-logs.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { PageRequest, Pagination } from '../api/types.ts';

export interface AuditEntry {
  id: string;
  actor_id: string;
  actor_type: string;
  actor_email: string;
  action: string;
  resource_type: string;
  resource_id: string;
  ip_address: string;
  user_agent: string;
  /** A JSON object of ids and changed field names, never a secret. */
  metadata: string;
  created_at: number;
}

export interface AuditFilters {
  actor_id?: string;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  /** Unix seconds, inclusive. */
  from_timestamp?: number;
  to_timestamp?: number;
}

const FIELDS = 'id actor_id actor_type actor_email action resource_type resource_id ip_address user_agent metadata created_at';

export const auditKeys = { all: ['audit-logs'] as const };

export function useAuditLogs(filters: AuditFilters, page: PageRequest) {
  return useQuery({
    queryKey: [...auditKeys.all, filters, page],
    queryFn: async ({ signal }) => {
      const query = `query AuditLogs($params: AuditLogsRequest!) { _audit_logs(params: $params) {
        audit_logs { ${FIELDS} } pagination { limit page offset total } } }`;
      type Answer = { _audit_logs: { audit_logs: AuditEntry[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { ...filters, pagination: page } }, signal))._audit_logs;
    },
    placeholderData: keepPreviousData,
  });
}
