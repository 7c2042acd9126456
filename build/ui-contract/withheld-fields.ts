/**
 * Output fields the browser apps never ask for. Both frontends are signed in by HttpOnly cookies
 * (docs/api-overview.md#authentication: the session cookies for the login UI, the `service-admin` cookie for
 * the console), so a token in an answer would only put a credential within reach of any script on the page
 * (OWASP ASVS 5.0 V3.5: tokens stay out of script-readable places). The generated documents leave these
 * fields out of their selections and the generated types leave them out of the answers, so no screen can
 * start reading one by accident.
 */
import type { TObject } from '../../server/ops/schema.ts';
import { objectName } from '../../server/ops/schema.ts';

/** Object name (`$id`) -> its fields the UI contract leaves out. */
export const WITHHELD_OUTPUT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['AuthResponse', new Set(['access_token', 'id_token', 'refresh_token'])],
]);

/** The output fields of an object the UI contract keeps, in the schema's order. */
export function keptOutputFields<T>(schema: TObject, properties: [string, T][]): [string, T][] {
  const withheld = WITHHELD_OUTPUT_FIELDS.get(objectName(schema));
  return withheld ? properties.filter(([field]) => !withheld.has(field)) : properties;
}
