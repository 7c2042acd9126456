/**
 * Which state-changing requests skip the Origin rule (security.ts): those the module endpoints exempt,
 * each with its reason (ops/endpoint.ts CsrfRule), matched by method and by the path as the endpoint
 * declares it. A path with no parameter is looked up in a set, so the token endpoint's POST, the hot one,
 * costs one lookup; a path with parameters (`/saml/:org/sso`) becomes a pattern whose `:name` is exactly one
 * non-empty segment, and a final `/*` also matches the bare prefix (`/scim/v2/*` covers `/scim/v2`).
 */
import type { CsrfExemption } from '../../ops/endpoint.ts';

export type CsrfExemptionMatcher = (method: string, path: string) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** The regular expression of a declared path with parameters or a final wildcard. */
export function pathPattern(path: string): RegExp {
  const wildcard = path.endsWith('/*');
  const fixed = wildcard ? path.slice(0, -2) : path;
  const segments = fixed.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
  return new RegExp(`^${segments.join('/')}${wildcard ? '(?:/.*)?' : ''}$`);
}

/** The first segment of a path (`/scim/v2/Users` gives `scim`), which keys the patterns to try. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

export function csrfExemptionMatcher(exemptions: readonly CsrfExemption[]): CsrfExemptionMatcher {
  const exact = new Set<string>();
  // Patterns by their fixed first segment, so that a POST to /v1 or /graphql tries none of SCIM's or SAML's;
  // a pattern whose first segment is a parameter is tried for every path.
  const bySegment = new Map<string, { methods: ReadonlySet<string>; pattern: RegExp }[]>();
  for (const { methods, path } of exemptions) {
    if (!path.includes(':') && !path.endsWith('*')) {
      for (const method of methods) exact.add(`${method} ${path}`);
      continue;
    }
    const segment = firstSegment(path);
    const key = segment.startsWith(':') || segment === '*' ? '' : segment;
    const list = bySegment.get(key) ?? [];
    list.push({ methods: new Set(methods), pattern: pathPattern(path) });
    bySegment.set(key, list);
  }
  const anyPath = bySegment.get('') ?? [];
  const matches = (entry: { methods: ReadonlySet<string>; pattern: RegExp }, method: string, path: string) => entry.methods.has(method) && entry.pattern.test(path);
  return (method, path) => {
    if (exact.has(`${method} ${path}`)) return true;
    const candidates = bySegment.get(firstSegment(path));
    return (candidates?.some((entry) => matches(entry, method, path)) ?? false) || anyPath.some((entry) => matches(entry, method, path));
  };
}
