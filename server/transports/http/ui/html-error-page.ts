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

/**
 * The page of a request refused while the database is down (503, docs/deployment.md#when-the-database-is-down):
 * nothing is wrong with the link or the request, so it says to try again rather than to ask for a new one.
 */
export const UNAVAILABLE_PAGE: ErrorPage = {
  title: 'Temporarily unavailable',
  heading: 'This service is temporarily unavailable',
  paragraphs: ['Please try again in a few moments.'],
};

/**
 * The look of the login UI (ui-shared/theme.ts: its indigo, the gray page, a white card with a soft border)
 * in one inline style sheet, so these pages load nothing: the CSP allows inline styles only.
 */
const PAGE_STYLE = [
  '*{box-sizing:border-box}',
  'body{margin:0;min-height:100vh;background:#f8f9fa;color:#1f2937;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.55}',
  'main{max-width:440px;margin:0 auto;padding:64px 16px}',
  '.card{background:#fff;border:1px solid #dee2e6;border-radius:12px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.05),0 8px 24px rgba(0,0,0,.04)}',
  'h1{margin:0 0 12px;font-size:24px;line-height:1.25;color:#111827;border-left:4px solid #4c51d4;padding-left:12px}',
  'p{margin:0 0 10px}',
  'p:last-child{margin-bottom:0}',
].join('');

export function sendHtmlErrorPage(reply: FastifyReply, status: number, page: ErrorPage): FastifyReply {
  const body = page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(page.title)}</title><style>${PAGE_STYLE}</style></head>
<body><main>
<div class="card">
<h1>${escapeHtml(page.heading)}</h1>
${body}
</div>
</main></body></html>
`;
  return reply
    .status(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
