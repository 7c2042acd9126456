/**
 * The request bodies of the /scim/v2/ endpoints (RFC 7644 section 3.1): application/scim+json or
 * application/json, nested at most as deep as the rest of the API allows. A request without content carries
 * nothing to parse, so its Content-Type says nothing (RFC 9110 section 8.3 describes content by it): many
 * SCIM clients put `Content-Type: application/scim+json` on every request, and a DELETE sent that way is
 * accepted (RFC 7644 section 3.6) whether it is framed with no length, `Content-Length: 0` or a chunked body
 * of zero bytes. A POST, PUT or PATCH without content is refused by the endpoint (modules/scim
 * scim-request.ts requiredBody), naming what is missing.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_BODY_BYTES, ScimError } from '../../modules/scim/index.ts';
import { depthExceededAt, MAX_JSON_DEPTH } from './json-body.ts';

const MEDIA_TYPES = ['application/scim+json', 'application/json'];

/** Content made only of JSON whitespace (RFC 8259 section 2) is no document at all. */
const isEmpty = (text: string) => /^[ \t\r\n]*$/.test(text);

export function registerScimBodyParsers(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(MEDIA_TYPES, { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (request, body, done) => {
    const text = String(body);
    if (isEmpty(text)) {
      done(null, undefined);
      return;
    }
    if (depthExceededAt(text, MAX_JSON_DEPTH) >= 0) {
      done(new ScimError(400, `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, 'invalidSyntax'), undefined);
      return;
    }
    parse(request, text, (err, value) => done(err ? new ScimError(400, 'the body is not valid JSON', 'invalidSyntax') : null, value));
  });
  // Any other media type (or none) is read only to see whether there is content: without, the request goes on.
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => {
    if (isEmpty(String(body))) done(null, undefined);
    else done(new ScimError(415, `the body must be ${MEDIA_TYPES.join(' or ')}`), undefined);
  });
}
