/**
 * Resolution limits (OpenFGA's resolve-node limits; docs/limits.md): a resolution too deep answers
 * an error, never a hang or a stack overflow. Every hop through a userset or a tuple-to-userset is one level, as in
 * OpenFGA's resolver (computed usersets on the same object do not count: they cannot recurse without a
 * cycle, which the visited-path check stops). Past the limit the whole request fails with OpenFGA's
 * "resolution too complex" (code 2002), mapped to our invalid_argument.
 */
import { AppError } from '../../../kernel/errors.ts';

/** OpenFGA's default resolve-node limit. */
export const DEFAULT_MAX_DEPTH = 25;
/** Sub-problems started at once by one fan-out (OpenFGA's default resolve-node breadth limit is 10). */
export const DEFAULT_CONCURRENCY = 10;
/** Hops one request makes before each further hop yields to the event loop (throttle.ts). */
export const DEFAULT_THROTTLE_THRESHOLD = 200;
/** Store reads in flight at once for one engine (one request). */
export const DEFAULT_MAX_CONCURRENT_READS = 50;

export const FGA_CODE_RESOLUTION_TOO_COMPLEX = 2002;

export function resolutionTooComplex(maxDepth: number): AppError {
  return new AppError(
    'invalid_argument',
    `resolution too complex: the request needs more than ${maxDepth} levels of usersets or tuple-to-userset; check the model for deep nesting`,
    { fgaCode: FGA_CODE_RESOLUTION_TOO_COMPLEX },
  );
}

export function isResolutionTooComplex(err: unknown): boolean {
  return err instanceof AppError && (err.detail as { fgaCode?: number } | undefined)?.fgaCode === FGA_CODE_RESOLUTION_TOO_COMPLEX;
}

export function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
