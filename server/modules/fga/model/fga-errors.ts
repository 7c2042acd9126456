/**
 * OpenFGA's numeric error codes (openfga/api errors.proto, enum ErrorCode) for the cases this server
 * reproduces. Every one of them is an `invalid_argument` to our transports (docs/errors.md: a
 * validation failure is invalid_argument); the number travels in AppError.detail as `{fgaCode}` so the
 * conformance runner and the logs can tell them apart.
 */
import { AppError } from '../../../kernel/errors.ts';

export const FGA_ERROR = {
  /** validation_error: a malformed or inconsistent request. */
  validation: 2000,
  /** authorization_model_resolution_too_complex: the resolution depth limit was reached. */
  resolutionTooComplex: 2002,
  /** cannot_allow_duplicate_tuples_in_one_request. */
  duplicateTuplesInRequest: 2004,
  /** invalid_continuation_token. */
  invalidContinuationToken: 2007,
  /** write_failed_due_to_invalid_input: writing an existing tuple or deleting a missing one. */
  writeFailedDueToInvalidInput: 2017,
  /** type_not_found. */
  typeNotFound: 2021,
  /** relation_not_found. */
  relationNotFound: 2022,
  /** invalid_tuple: a tuple (written or contextual) that the model does not allow. */
  invalidTuple: 2027,
  /** query_string_type_continuation_token_mismatch: a token reused with another filter. */
  continuationTokenMismatch: 2052,
  /** invalid_authorization_model. */
  invalidModel: 2056,
  /** unsupported_schema_version. */
  unsupportedSchemaVersion: 2057,
} as const;

export type FgaErrorCode = (typeof FGA_ERROR)[keyof typeof FGA_ERROR];

export interface FgaErrorDetail {
  fgaCode: FgaErrorCode;
}

/** An invalid_argument AppError carrying OpenFGA's code. `message` is public: it never holds secrets. */
export function fgaError(fgaCode: FgaErrorCode, message: string): AppError {
  return new AppError('invalid_argument', message, { fgaCode } satisfies FgaErrorDetail);
}

/** The OpenFGA code attached to an error by fgaError, if any. */
export function fgaCodeOf(err: unknown): FgaErrorCode | undefined {
  if (!(err instanceof AppError)) return undefined;
  const detail = err.detail as Partial<FgaErrorDetail> | undefined;
  return typeof detail?.fgaCode === 'number' ? detail.fgaCode : undefined;
}
