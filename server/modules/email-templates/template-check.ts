/**
 * The checks a stored template passes when it is saved, so that a broken template is refused to the admin
 * (invalid_argument) instead of failing, or mailing nonsense, when a user needs the mail
 * (docs/events.md#email-template-events: placeholders reach `user`, `organization`, `verification_url` and `otp`).
 *
 * Every `{{...}}` must be one of the renderer's forms (email/render-template.ts: `{{path}}`, `{{.path}}`,
 * `{{#path}}...{{/path}}`), name a known placeholder, and sections may not nest (the renderer expands one
 * level). Anything else, a mustache triple `{{{...}}}` (unescaped output) included, is a syntax error. The
 * link of a link event, or the code of verify_otp, must reach the reader whatever the optional values are:
 * the template is rendered with every optional value empty and the link or code must appear.
 */
import { AppError } from '../../kernel/errors.ts';
import { scalarKind, type TSchema } from '../../ops/schema.ts';
import { UserSchema } from '../users/index.ts';
import { escapeHtml, renderTemplate, type EmailEvent, type TemplateContext } from '../email/index.ts';

/** Scalar fields of the public User (lists and maps would print nothing), plus the renderer's `user.name`. */
const USER_FIELDS = Object.entries(UserSchema.properties as Record<string, TSchema>)
  .filter(([, schema]) => ['String', 'Boolean', 'Int', 'Int64'].includes(scalarKind(schema) ?? ''))
  .map(([name]) => `user.${name}`);

export const PLACEHOLDERS: ReadonlySet<string> = new Set([
  ...USER_FIELDS,
  'user.name',
  'organization.name',
  'organization.logo',
  'verification_url',
  'otp',
]);

const TAG = /\{\{([\s\S]*?)\}\}/g;
const PATH = '\\.?([A-Za-z_][\\w.]*)';
const OPEN = new RegExp(`^#\\s*${PATH}\\s*$`);
const CLOSE = new RegExp(`^/\\s*${PATH}\\s*$`);
const VALUE = new RegExp(`^\\s*${PATH}\\s*$`);

function known(path: string, field: string): void {
  if (!PLACEHOLDERS.has(path)) {
    throw AppError.invalid(`${field}: unknown placeholder {{${path}}}; known: ${[...PLACEHOLDERS].sort().join(', ')}`);
  }
}

/** Refuses a template with a tag the renderer would not understand or a placeholder nobody fills. */
export function checkSyntax(template: string, field: string): void {
  let open: string | undefined;
  let rest = '';
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    rest += template.slice(last, match.index);
    last = match.index + match[0].length;
    const inner = match[1]!;
    const shown = JSON.stringify(match[0].slice(0, 60));
    const opening = OPEN.exec(inner);
    const closing = CLOSE.exec(inner);
    const value = VALUE.exec(inner);
    if (opening) {
      if (open) throw AppError.invalid(`${field}: sections cannot be nested ({{#${opening[1]}}} inside {{#${open}}})`);
      known(opening[1]!, field);
      open = opening[1]!;
    } else if (closing) {
      if (closing[1] !== open) throw AppError.invalid(`${field}: ${shown} closes no open section`);
      open = undefined;
    } else if (value) {
      known(value[1]!, field);
    } else {
      throw AppError.invalid(`${field}: syntax error at ${shown}`);
    }
  }
  rest += template.slice(last);
  if (open) throw AppError.invalid(`${field}: section {{#${open}}} is not closed`);
  if (rest.includes('{{') || rest.includes('}}')) throw AppError.invalid(`${field}: unbalanced {{ or }}`);
}

const PROBE_URL = 'https://probe.invalid/verify_email?token=probe-token&redirect_uri=probe';
const PROBE_OTP = '917364';

/** The one value the event's mail exists to deliver must appear with every optional value empty. */
function checkDelivers(event: EmailEvent, template: string): void {
  const context: TemplateContext = {
    user: {},
    organization: { name: '', logo: '' },
    verification_url: event === 'verify_otp' ? '' : PROBE_URL,
    otp: event === 'verify_otp' ? PROBE_OTP : '',
  };
  const html = renderTemplate(template, context, 'html');
  if (event === 'verify_otp') {
    if (!html.includes(PROBE_OTP)) throw AppError.invalid('template: the verify_otp email must show {{otp}} outside any section');
  } else if (!html.includes(escapeHtml(PROBE_URL))) {
    throw AppError.invalid(`template: the ${event} email must carry {{verification_url}} outside any section`);
  }
}

/** Everything a stored template must pass; throws invalid_argument naming the field. */
export function checkTemplate(event: EmailEvent, subject: string, template: string): void {
  if (!subject.trim()) throw AppError.invalid('subject must not be empty');
  if (!template.trim()) throw AppError.invalid('template must not be empty');
  checkSyntax(subject, 'subject');
  checkSyntax(template, 'template');
  checkDelivers(event, template);
}
