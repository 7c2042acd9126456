/**
 * Placeholder rendering for email templates (docs/events.md: placeholders reach `user`,
 * `organization`, `verification_url` and `otp`). Two spellings are accepted so that templates written
 * for the released line keep working: `{{user.given_name}}` and the Go-template form `{{.user.given_name}}`.
 * `{{#path}}...{{/path}}` keeps its inner text only when the value is present and not empty.
 *
 * Values are escaped for HTML in the HTML body (a user's name is user input and must not become markup);
 * the text body is left as it is, and the subject additionally loses line breaks (no header injection).
 */

export type TemplateContext = Readonly<Record<string, unknown>>;
export type Escaping = 'html' | 'none';

const SECTION = /\{\{#\s*\.?([A-Za-z_][\w.]*)\s*\}\}([\s\S]*?)\{\{\/\s*\.?\1\s*\}\}/g;
const PLACEHOLDER = /\{\{\s*\.?([A-Za-z_][\w.]*)\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function lookup(context: TemplateContext, path: string): unknown {
  let value: unknown = context;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Only scalars are printed; an object or a missing value renders as nothing rather than "[object Object]". */
function printable(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return '';
}

export function renderTemplate(template: string, context: TemplateContext, escaping: Escaping): string {
  const withSections = template.replace(SECTION, (_match, path: string, inner: string) =>
    printable(lookup(context, path)) === '' ? '' : inner,
  );
  return withSections.replace(PLACEHOLDER, (_match, path: string) => {
    const text = printable(lookup(context, path));
    return escaping === 'html' ? escapeHtml(text) : text;
  });
}

/** A subject is one header line: rendered without escaping, with every line break folded into a space. */
export function renderSubject(template: string, context: TemplateContext): string {
  return renderTemplate(template, context, 'none').replace(/[\r\n]+/g, ' ').trim();
}
