/**
 * The operation schemas (ops/schema.ts, TypeBox, so JSON Schema underneath) as OpenAPI 3.1 Schema Objects,
 * which are JSON Schema 2020-12 (OpenAPI 3.1.1 section 4.8.24). Each named object becomes one entry of
 * `components.schemas` under its `$id`, the same name GraphQL and protobuf give it, and is referenced with
 * `$ref`; scalars carry their JSON type and, for integers, the OpenAPI format (int32, int64).
 *
 * The declared schemas are rendered, as the GraphQL and proto generators render them: the default input
 * limits (ops/input-limits.ts) are stated once in the document's description instead. Only the schema
 * vocabulary of ops/schema.ts is understood; anything else fails the generation rather than vanishing from
 * the contract.
 */
import { isListSchema, isObjectSchema, objectName, scalarKind, type ScalarKind, type TObject, type TSchema } from '../../ops/schema.ts';

export type JsonSchema = Record<string, unknown>;

/** JSON Schema keywords copied as they are: validation keywords whose meaning is the same in 2020-12. */
const COPIED_KEYWORDS = ['description', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'enum', 'default'];
/** Keywords read here to build the rendering, or annotations of ops/schema.ts that stay inside the server. */
const STRUCTURAL_KEYWORDS = new Set(['$id', 'type', 'properties', 'required', 'items', 'patternProperties', 'x-portcullis', 'x-portcullis-multiline']);

const SCALAR_TYPES: Record<ScalarKind, JsonSchema> = {
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  Int: { type: 'integer', format: 'int32' },
  Int64: { type: 'integer', format: 'int64' },
  // Free-form JSON object : any members.
  Map: { type: 'object', additionalProperties: true },
};

export const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

function copied(schema: TSchema, where: string): JsonSchema {
  const out: JsonSchema = {};
  for (const key of Object.keys(schema)) {
    if (!STRUCTURAL_KEYWORDS.has(key) && !COPIED_KEYWORDS.includes(key)) {
      throw new Error(`${where}: schema keyword ${key} has no OpenAPI rendering here (server/transports/http/openapi-schemas.ts)`);
    }
  }
  for (const key of COPIED_KEYWORDS) {
    const value = (schema as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Every named object reachable from the operations, one component each; two shapes under one name fail. */
export class SchemaComponents {
  private readonly sources = new Map<string, TObject>();
  private readonly rendered = new Map<string, JsonSchema>();
  private readonly reserved: ReadonlySet<string>;

  /** `reserved`: component names the document defines itself (the error envelope). */
  constructor(reserved: ReadonlySet<string> = new Set()) {
    this.reserved = reserved;
  }

  /** Registers a named object and answers the `$ref` that points at it. */
  ref(schema: TObject, where: string): JsonSchema {
    const name = objectName(schema);
    if (this.reserved.has(name)) throw new Error(`${where}: schema name ${name} is taken by the document itself`);
    const known = this.sources.get(name);
    if (known) {
      if (known !== schema && JSON.stringify(known) !== JSON.stringify(schema)) {
        throw new Error(`two different schemas are both named ${name} (second one at ${where})`);
      }
    } else {
      this.sources.set(name, schema);
      this.rendered.set(name, this.object(schema, name));
    }
    return { $ref: `${COMPONENT_SCHEMA_PREFIX}${name}` };
  }

  /** The Schema Object of one field or list item. */
  field(schema: TSchema, where: string): JsonSchema {
    const scalar = scalarKind(schema);
    if (scalar !== undefined) return { ...SCALAR_TYPES[scalar], ...copied(schema, where) };
    if (isListSchema(schema)) {
      return { type: 'array', items: this.field(schema.items as TSchema, `${where}[]`), ...copied(schema, where) };
    }
    // A named object's description is its component's, not repeated at every field that uses it.
    if (isObjectSchema(schema)) return this.ref(schema, where);
    throw new Error(`${where}: schema is neither an s.* scalar, a list nor a named object`);
  }

  private object(schema: TObject, name: string): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const [field, property] of Object.entries(schema.properties ?? {}) as [string, TSchema][]) {
      properties[field] = this.field(property, `${name}.${field}`);
    }
    const required = schema.required ?? [];
    return {
      type: 'object',
      ...copied(schema, name),
      properties,
      ...(required.length > 0 ? { required: [...required] } : {}),
    };
  }

  /** `components.schemas`, sorted by name so the document is stable whatever the registry order. */
  all(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.rendered.keys()].sort().map((name) => [name, this.rendered.get(name)!]));
  }
}
