/**
 * The two answers of an endpoint that are pages handing values to the client rather than redirects
 * (ops/endpoint.ts answers 'form-post' and 'web-message'):
 * - form-post (OAuth 2.0 Form Post Response Mode section 2): a form of hidden fields that submits itself to
 *   its action; it may not be framed (X-Frame-Options and frame-ancestors 'none', section 5 of that
 *   specification on clickjacking);
 * - web-message (docs/sdk-compatibility.md): a page for an iframe of the client that posts a message to
 *   window.parent, addressed to one origin only, so no other window can read it; only that origin may frame
 *   it (frame-ancestors <origin>).
 * Each runs one inline script allowed by a fresh nonce (CSP Level 3 section 6.7.1): no other script runs.
 * Values go in escaped, and the JSON is kept from closing its script element. Never cached.
 */
import type { FastifyReply } from 'fastify';
import { randomToken } from '../../../kernel/crypto.ts';
import { escapeHtml } from '../../../modules/email/index.ts';

function page(reply: FastifyReply, csp: string, body: string): FastifyReply {
  return reply
    .status(200)
    .header('content-security-policy', csp)
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Returning to the application</title></head>\n<body>\n${body}\n</body></html>\n`);
}

/** JSON that is safe inside a <script> element: no `<` (so no `</script>`), no U+2028/2029. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function sendFormPost(reply: FastifyReply, action: string, fields: Readonly<Record<string, string>>): FastifyReply {
  const nonce = randomToken(16);
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const origin = new URL(action).origin;
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${origin}; base-uri 'none'; frame-ancestors 'none'`;
  const body = `<form method="post" action="${escapeHtml(action)}">
${inputs}
<noscript><p>Scripts are off: continue to the application.</p><button type="submit">Continue</button></noscript>
</form>
<script nonce="${nonce}">document.forms[0].submit();</script>`;
  return page(reply.header('x-frame-options', 'DENY'), csp, body);
}

export function sendWebMessage(reply: FastifyReply, targetOrigin: string, message: unknown): FastifyReply {
  const nonce = randomToken(16);
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors ${targetOrigin}`;
  const body = `<script nonce="${nonce}">window.parent.postMessage(${scriptJson(message)}, ${scriptJson(targetOrigin)});</script>`;
  // X-Frame-Options cannot name one origin; frame-ancestors decides, so the DENY default is dropped.
  reply.removeHeader('x-frame-options');
  return page(reply, csp, body);
}
