/**
 * Resource indicators (RFC 8707): the resource servers a client may ask tokens for, registered with the
 * client (allowed_resources), and the check of a `resource` value (RFC 8707 section 2: an absolute URI
 * without a fragment; the server refuses one it does not know for the client with invalid_target).
 */
import { AppError } from '../../kernel/errors.ts';

export const MAX_RESOURCES = 20;
const MAX_RESOURCE_LENGTH = 2048;

/** Why `value` is not a resource indicator (RFC 8707 section 2), or undefined when it is one. */
export function resourceProblem(value: string): string | undefined {
  if (value.length > MAX_RESOURCE_LENGTH) return 'is too long';
  if (value.includes('#')) return 'must not include a fragment';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  // new URL accepts "https:x"; an absolute URI of a resource server names its host.
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !/^https?:\/\//i.test(value)) return 'must be an absolute URI';
  return undefined;
}

/** The registered list, each an absolute URI without a fragment (AppError invalid_argument otherwise). */
export function checkedResources(resources: readonly string[]): string[] {
  for (const value of resources) {
    const problem = resourceProblem(value);
    if (problem) throw AppError.invalid(`allowed_resources: ${JSON.stringify(value.slice(0, 200))} ${problem}`);
  }
  return [...new Set(resources)];
}
