/**
 * Length limits of every operation input (OWASP ASVS 4.0 5.1.4 and 13.1.x: structured data is checked for
 * length; docs/errors.md). Each input string and list without its own
 * bound gets one no real user reaches: RFC 5321 section 4.5.3.1 for email addresses (254 in a path), E.164
 * plus formatting for phone numbers, 2048 for URLs, 4096 for tokens and opaque values, 256 for everything
 * else (names, roles, scopes, ids), and 100 items for a list. A field raises or lowers its bound by
 * declaring maxLength / maxItems itself. Outputs are never limited (stored data older than a limit must
 * still be readable), so the limits live on a derived copy of the input schema that only input parsing
 * uses; the GraphQL and proto generators read the declared schema, whose contract does not change.
 */
import { isMultiline, type TSchema, type TObject } from './schema.ts';

/**
 * Input text is one line unless the field is declared multiline (schema.ts): tab, LF and CR would split a
 * mail header, a log line or a DSL token. As a pattern on the derived schema, the compiled checker tests it
 * in the same pass as the lengths; parseInput turns its refusal into a plain message.
 */
export const ONE_LINE_PATTERN = '^[^\\t\\n\\r]*$';

export const DEFAULT_MAX_STRING = 256;
export const DEFAULT_MAX_ITEMS = 100;

/** Bounds by field name, for the fields whose real values are longer than a name. */
const MAX_LENGTH_BY_FIELD: Readonly<Record<string, number>> = {
  email: 254,
  emails: 254,
  phone_number: 32,
  picture: 2048,
  redirect_uri: 2048,
  state: 4096,
  token: 4096,
  refresh_token: 4096,
  cookie: 4096,
  continuation_token: 4096,
  admin_secret: 4096,
};

function limited(schema: TSchema, field: string | undefined): TSchema {
  if (schema.type === 'string') {
    const maxLength = schema.maxLength ?? ((field && MAX_LENGTH_BY_FIELD[field]) || DEFAULT_MAX_STRING);
    const oneLine = isMultiline(schema) || schema.pattern !== undefined ? {} : { pattern: ONE_LINE_PATTERN };
    return { ...schema, maxLength, ...oneLine } as TSchema;
  }
  if (schema.type === 'array') {
    return {
      ...schema,
      maxItems: schema.maxItems ?? DEFAULT_MAX_ITEMS,
      items: limited(schema.items as TSchema, field),
    } as TSchema;
  }
  if (schema.type === 'object' && schema.properties) {
    const properties: Record<string, TSchema> = {};
    for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
      properties[name] = limited(property, name);
    }
    return { ...schema, properties } as TSchema;
  }
  // Map (free-form JSON) values are bounded by the HTTP body limit and the gRPC message limit.
  return schema;
}

const cache = new WeakMap<TObject, TObject>();

/** The input schema with the default limits filled in; the same object for the same schema. */
export function withInputLimits(schema: TObject): TObject {
  let derived = cache.get(schema);
  if (!derived) {
    derived = limited(schema, undefined) as TObject;
    cache.set(schema, derived);
  }
  return derived;
}
