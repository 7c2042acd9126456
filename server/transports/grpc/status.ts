/**
 * AppError kind -> gRPC status code: the one gRPC table (docs/architecture.md#one-operation-three-protocols;
 * docs/errors.md). Protocol refusals (method_not_allowed, unimplemented) are UNIMPLEMENTED, the status
 * grpc-js itself gives a method the contract does not have.
 */
import { status } from '@grpc/grpc-js';
import type { ErrorKind } from '../../kernel/errors.ts';

export const GRPC_STATUS_BY_KIND: Record<ErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  permission_denied: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  already_exists: status.ALREADY_EXISTS,
  failed_precondition: status.FAILED_PRECONDITION,
  method_not_allowed: status.UNIMPLEMENTED,
  too_many_requests: status.RESOURCE_EXHAUSTED,
  unimplemented: status.UNIMPLEMENTED,
  unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
};
