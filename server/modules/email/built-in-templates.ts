/**
 * The built-in email of each event (docs/events.md: a stored template overrides it). Every
 * template is placeholder text rendered by render-template.ts, so built-ins and stored overrides go
 * through the same escaping. `user.name` is a convenience the renderer's context adds (given and family
 * name, else the email address).
 */
import type { EmailEvent } from './email-events.ts';

export interface EmailTemplate {
  subject: string;
  html: string;
  /** Plain-text alternative; a stored override may have none (the EmailTemplate of docs/api-overview.md#resources-and-fields has HTML only). */
  text?: string;
}

interface Wording {
  subject: string;
  heading: string;
  lines: string[];
  /** Label of the button that opens `verification_url`; none for the OTP email. */
  action?: string;
  /** Shown under the action. */
  footnote: string;
}

function htmlLayout(w: Wording): string {
  const paragraphs = w.lines.map((line) => `<p style="margin:0 0 16px">${line}</p>`).join('\n');
  const action = w.action
    ? `<p style="margin:24px 0"><a href="{{verification_url}}" style="background:#1f2937;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${w.action}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4b5563">If the button does not work, copy this link into your browser:<br><a href="{{verification_url}}">{{verification_url}}</a></p>`
    : `<p style="margin:24px 0;font-size:28px;letter-spacing:6px;font-weight:bold">{{otp}}</p>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${w.subject}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
{{#organization.logo}}<p style="margin:0 0 24px"><img src="{{organization.logo}}" alt="{{organization.name}}" style="max-height:48px"></p>{{/organization.logo}}
<h1 style="font-size:20px;margin:0 0 16px">${w.heading}</h1>
${paragraphs}
${action}
<p style="margin:0;font-size:13px;color:#4b5563">${w.footnote}</p>
</div>
</body></html>
`;
}

function textLayout(w: Wording): string {
  const action = w.action ? `${w.action}:\n{{verification_url}}` : 'Your code: {{otp}}';
  return `${w.heading}\n\n${w.lines.join('\n\n')}\n\n${action}\n\n${w.footnote}\n\n{{organization.name}}\n`;
}

const IGNORE = 'If you did not ask for this, you can ignore this email.';

const WORDING: Record<EmailEvent, Wording> = {
  basic_auth_signup: {
    subject: 'Verify your email address for {{organization.name}}',
    heading: 'Welcome to {{organization.name}}',
    lines: ['Hello {{user.name}},', 'Please confirm that this is your email address to finish signing up.'],
    action: 'Verify email address',
    footnote: `The link works once and expires soon. ${IGNORE}`,
  },
  magic_link_login: {
    subject: 'Your sign-in link for {{organization.name}}',
    heading: 'Sign in to {{organization.name}}',
    lines: ['Hello {{user.name}},', 'Use the link below to sign in. No password is needed.'],
    action: 'Sign in',
    footnote: `The link works once and expires soon. ${IGNORE}`,
  },
  update_email: {
    subject: 'Confirm your new email address for {{organization.name}}',
    heading: 'Confirm your new email address',
    lines: ['Hello {{user.name}},', 'Your {{organization.name}} account was asked to use this email address. Please confirm it.'],
    action: 'Confirm email address',
    footnote: `The link works once and expires soon. ${IGNORE}`,
  },
  forgot_password: {
    subject: 'Reset your {{organization.name}} password',
    heading: 'Reset your password',
    lines: ['Hello {{user.name}},', 'We received a request to reset the password of your {{organization.name}} account.'],
    action: 'Choose a new password',
    footnote: `The link works once and expires soon. ${IGNORE} Your password stays as it is.`,
  },
  invite_member: {
    subject: 'You are invited to {{organization.name}}',
    heading: 'You are invited to {{organization.name}}',
    lines: ['Hello,', 'You have been invited to join {{organization.name}}. Accept the invitation to set up your account.'],
    action: 'Accept invitation',
    footnote: 'The link works once and expires soon. If you did not expect this invitation, you can ignore this email.',
  },
  verify_otp: {
    subject: 'Your {{organization.name}} verification code',
    heading: 'Your verification code',
    lines: ['Hello {{user.name}},', 'Enter this code to continue signing in to {{organization.name}}.'],
    footnote: `The code works once and expires in a few minutes. Never share it with anyone. ${IGNORE}`,
  },
};

export const BUILT_IN_TEMPLATES: Readonly<Record<EmailEvent, EmailTemplate>> = Object.fromEntries(
  Object.entries(WORDING).map(([event, w]) => [event, { subject: w.subject, html: htmlLayout(w), text: textLayout(w) }]),
) as Record<EmailEvent, EmailTemplate>;
