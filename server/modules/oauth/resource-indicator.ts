/**
 * The `resource` parameter (RFC 8707 section 2) of /authorize, /oauth/par and the token endpoint: an absolute
 * URI without a fragment, registered for the client (its allowed_resources), else invalid_target. One
 * resource per request: the access token's aud names it (claims.ts Grant.resource); a request naming
 * several is refused rather than given a token valid at all of them.
 */
import { resourceProblem } from '../clients/index.ts';

export type ResourceChoice = { ok: true; resource?: string } | { ok: false; description: string };

export function chosenResource(value: unknown, allowed: readonly string[]): ResourceChoice {
  if (value === undefined || value === '') return { ok: true };
  const values = Array.isArray(value) ? value : [value];
  if (values.length !== 1) return { ok: false, description: 'one resource per request: ask for a token per resource server' };
  const resource = values[0];
  if (typeof resource !== 'string') return { ok: false, description: 'resource must be a string' };
  const problem = resourceProblem(resource);
  if (problem) return { ok: false, description: `resource ${problem} (RFC 8707 section 2)` };
  if (!allowed.includes(resource)) return { ok: false, description: 'resource is not registered for this client' };
  return { ok: true, resource };
}
