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

export function csrfExemptionMatcher(exemptions: readonly CsrfExemption[]): CsrfExemptionMatcher {
  const exact = new Set<string>();
  const patterns: { methods: ReadonlySet<string>; pattern: RegExp }[] = [];
  for (const { methods, path } of exemptions) {
    if (path.includes(':') || path.endsWith('*')) patterns.push({ methods: new Set(methods), pattern: pathPattern(path) });
    else for (const method of methods) exact.add(`${method} ${path}`);
  }
  return (method, path) => exact.has(`${method} ${path}`) || patterns.some((entry) => entry.methods.has(method) && entry.pattern.test(path));
}
