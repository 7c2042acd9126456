/**
 * `_verification_requests` (docs/operations.md: POST /v1/admin/verification_requests, pagination
 * optional, answers {verification_requests, pagination}). Pending requests only (a used link is spent),
 * newest first. `token` is part of the VerificationRequest type (docs/api-overview.md#resources-and-fields) but is never filled: only hashes are stored.
 */
import { defineOperation } from '../../ops/define.ts';
import { s, type Static } from '../../ops/schema.ts';
import { PaginatedRequest, Pagination, paginate } from '../../ops/pagination.ts';
import { unixSeconds } from '../users/index.ts';
import { VerificationRequest, type VerificationRequestRow } from './verification-request.entity.ts';

export const VerificationRequestSchema = s.object('VerificationRequest', {
  id: s.string(),
  identifier: s.optional(s.string()),
  token: s.optional(s.string({ description: 'never returned: only a hash of the token is stored' })),
  email: s.optional(s.string()),
  expires: s.optional(s.int64()),
  created_at: s.optional(s.int64()),
  updated_at: s.optional(s.int64()),
  nonce: s.optional(s.string()),
  redirect_uri: s.optional(s.string()),
});

export const VerificationRequests = s.object('VerificationRequests', {
  verification_requests: s.list(VerificationRequestSchema),
  pagination: Pagination,
});

export function toPublicVerificationRequest(row: VerificationRequestRow): Static<typeof VerificationRequestSchema> {
  return {
    id: row.id,
    identifier: row.identifier,
    email: row.email,
    expires: unixSeconds(row.expiresAt),
    created_at: unixSeconds(row.createdAt),
    updated_at: unixSeconds(row.updatedAt),
    nonce: row.nonce,
    redirect_uri: row.redirectUri ?? undefined,
  };
}

export const verificationRequestsOp = defineOperation({
  name: 'verification_requests',
  admin: true,
  kind: 'query',
  description: 'Lists pending verification requests, newest first (tokens are stored as hashes and never returned)',
  input: PaginatedRequest,
  output: VerificationRequests,
  auth: 'admin',
  graphql: { nullableArg: true },
  handler: async (input, ctx) => {
    const page = await paginate(ctx.em, VerificationRequest, { usedAt: null }, input.pagination, { createdAt: 'desc', id: 'asc' });
    return { verification_requests: page.items.map(toPublicVerificationRequest), pagination: page.pagination };
  },
});

export const verificationOperations = [verificationRequestsOp];
