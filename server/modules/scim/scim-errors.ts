/**
 * SCIM protocol errors (RFC 7644 section 3.12): an HTTP status, an optional scimType and a detail that is
 * safe to show the identity provider's administrator (never a secret, never another organization's data).
 * The /scim/v2/ endpoints answer them as `{schemas: [Error URN], status: "<n>", scimType, detail}`
 * (transports/http/scim-refusals.ts). A ScimError is an AppError, so that the endpoint pipeline
 * (ops/run-endpoint.ts) hands it to the transport as it was thrown; its kind, from its status, is what logs read.
 */
import { AppError, type ErrorKind } from '../../kernel/errors.ts';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 section 3.12, table 9. */
export type ScimType =
  | 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget'
  | 'invalidValue' | 'invalidVers' | 'sensitive';

/** The AppError kind of a SCIM status (RFC 7644 section 3.12 lists the statuses), for the refusal log. */
const KIND_OF_STATUS: Readonly<Record<number, ErrorKind>> = {
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  409: 'already_exists',
  412: 'failed_precondition',
  429: 'too_many_requests',
};

function kindOf(status: number): ErrorKind {
  return KIND_OF_STATUS[status] ?? (status >= 500 ? 'internal' : 'invalid_argument');
}

export class ScimError extends AppError {
  readonly status: number;
  readonly scimType?: ScimType;

  constructor(status: number, detail: string, scimType?: ScimType) {
    super(kindOf(status), detail);
    this.name = 'ScimError';
    this.status = status;
    this.scimType = scimType;
  }

  static badRequest(scimType: ScimType, detail: string): ScimError {
    return new ScimError(400, detail, scimType);
  }

  static override notFound(detail = 'resource not found'): ScimError {
    return new ScimError(404, detail);
  }

  static conflict(detail: string): ScimError {
    return new ScimError(409, detail, 'uniqueness');
  }

  /** RFC 7644 section 3.14: If-Match names another version than the current one. */
  static preconditionFailed(): ScimError {
    return new ScimError(412, 'the resource changed since the version given in If-Match');
  }
}

export function scimErrorBody(error: ScimError): Record<string, unknown> {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.message,
  };
}
