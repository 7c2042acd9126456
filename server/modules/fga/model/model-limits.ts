/**
 * The size bound of a model's DSL, apart from the parser (parse-model.ts), so the input schema can name it
 * without loading OpenFGA's parser at start: the parser loads with the first model write (fga.service.ts).
 *
 * A model's DSL is at most this large. OpenFGA's default limit is on the JSON form (256 KiB,
 * max-authorization-model-size-in-bytes), which is about 3.2 times the DSL over OpenFGA's conformance
 * models, so 64 KiB of DSL is about 200 KiB of JSON. Parsing and validation cost about 5 microseconds a
 * byte in the worst shapes measured (thousands of syntax errors), so one write holds the event loop for
 * well under a second (OWASP ASVS 5.0 V2.4).
 */
export const MAX_MODEL_DSL_BYTES = 64 * 1024;

/**
 * Parenthesised rewrites nest this deep at most. Real models nest two or three levels; the parser's
 * prediction cost grows with the nesting at every group, so the bound keeps parsing linear in the model's
 * size (OWASP ASVS 5.0 V2.4: a single request must not exhaust the server). The console's editor applies
 * the same bound before its own parse.
 */
export const MAX_MODEL_NESTING = 16;
