/**
 * A plain HTML page for a refusal a browser lands on (an unusable emailed link, a redirect_uri that is not
 * allowed, a UI that is not built). Only the given text goes in, escaped; the page loads nothing
 * (Content-Security-Policy default-src 'none') and sends no Referer (its URL may hold a token).
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../../modules/email/index.ts';

export interface ErrorPage {
  title: string;
  heading: string;
  /** Sentences; each is escaped. */
  paragraphs: readonly string[];
}

export function sendHtmlErrorPage(reply: FastifyReply, status: number, page: ErrorPage): FastifyReply {
  const body = page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;max-width:560px;margin:48px auto;padding:0 24px;color:#111827">
<h1 style="font-size:20px">${escapeHtml(page.heading)}</h1>
${body}
</body></html>
`;
  return reply
    .status(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
