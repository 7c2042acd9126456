/**
 * What the editor starts from for an event with no stored template: the built-in mail's subject and a plain
 * HTML body in its words (server/modules/email/built-in-templates.ts), carrying the link or the code the
 * server requires of the event's template (template-check.ts "checkDelivers").
 */
import type { EmailEvent } from './api.ts';

interface Starter {
  subject: string;
  heading: string;
  line: string;
  action?: string;
}

const STARTERS: Record<EmailEvent, Starter> = {
  basic_auth_signup: {
    subject: 'Verify your email address for {{organization.name}}',
    heading: 'Welcome to {{organization.name}}',
    line: 'Please confirm that this is your email address to finish signing up.',
    action: 'Verify email address',
  },
  magic_link_login: {
    subject: 'Your sign-in link for {{organization.name}}',
    heading: 'Sign in to {{organization.name}}',
    line: 'Use the link below to sign in. No password is needed.',
    action: 'Sign in',
  },
  update_email: {
    subject: 'Confirm your new email address for {{organization.name}}',
    heading: 'Confirm your new email address',
    line: 'Your {{organization.name}} account was asked to use this email address. Please confirm it.',
    action: 'Confirm email address',
  },
  forgot_password: {
    subject: 'Reset your {{organization.name}} password',
    heading: 'Reset your password',
    line: 'We received a request to reset the password of your {{organization.name}} account.',
    action: 'Choose a new password',
  },
  invite_member: {
    subject: 'You are invited to {{organization.name}}',
    heading: 'You are invited to {{organization.name}}',
    line: 'You have been invited to join {{organization.name}}. Accept the invitation to set up your account.',
    action: 'Accept invitation',
  },
  verify_otp: {
    subject: 'Your {{organization.name}} verification code',
    heading: 'Your verification code',
    line: 'Enter this code to continue signing in to {{organization.name}}.',
  },
};

export function starterTemplate(event: EmailEvent): { subject: string; template: string } {
  const s = STARTERS[event];
  const delivers = s.action
    ? `<p><a href="{{verification_url}}">${s.action}</a></p>\n<p>If the link does not work, copy it into your browser: {{verification_url}}</p>`
    : '<p style="font-size:28px;letter-spacing:6px;font-weight:bold">{{otp}}</p>';
  const template = `<h1>${s.heading}</h1>\n<p>Hello {{user.name}},</p>\n<p>${s.line}</p>\n${delivers}\n<p>If you did not ask for this, you can ignore this email.</p>\n`;
  return { subject: s.subject, template };
}
