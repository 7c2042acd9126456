/**
 * Sends the email of one event (docs/events.md): resolve the template (stored override, else the
 * built-in one), render it with the user, the organization (--organization-name, --organization-logo),
 * the link and the code, and hand it to the mailer.
 *
 * Call it with ctx.deps; links come from email-links.ts (built from --url only). Sending is a network
 * call: prefer sending once the change it announces is saved (storage/types.ts rule 9).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Config } from '../../config/flags.ts';
import { isEmailEvent, type EmailEvent } from './email-events.ts';
import { renderSubject, renderTemplate, type TemplateContext } from './render-template.ts';
import { resolveTemplate, type TemplateOverrideLookup } from './template-overrides.ts';
import { createSmtpMailer, type Mailer, type SmtpConfig } from './smtp-mailer.ts';

/** What sending needs of Deps. `mailer` and `templateOverrides` are optional until the app wires them. */
export interface EmailDeps {
  readonly config: SmtpConfig & Pick<Config, 'organizationName' | 'organizationLogo'>;
  readonly logger: Logger;
  readonly mailer?: Mailer;
  readonly templateOverrides?: TemplateOverrideLookup;
}

/** The public User object (toPublicUser) or any object with its snake_case fields. */
export type TemplateUser = Readonly<Record<string, unknown>>;

export interface TemplatedEmail {
  event: EmailEvent;
  to: string;
  user: TemplateUser;
  /** The link of the email (email-links.ts); required for every event but verify_otp. */
  url?: string;
  /** The one-time code; required for verify_otp. */
  otp?: string;
  /** Unit of work for the stored-template lookup. */
  em?: EntityManager;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** `user.name` for greetings: given and family name, else the email address. */
function displayName(user: TemplateUser): string {
  const full = [text(user.given_name), text(user.family_name)].filter(Boolean).join(' ');
  return full || text(user.nickname) || text(user.email);
}

export function buildTemplateContext(
  config: Pick<Config, 'organizationName' | 'organizationLogo'>,
  email: Pick<TemplatedEmail, 'user' | 'url' | 'otp'>,
): TemplateContext {
  return {
    user: { ...email.user, name: displayName(email.user) },
    organization: { name: config.organizationName, logo: config.organizationLogo },
    verification_url: email.url ?? '',
    otp: email.otp ?? '',
  };
}

function checkRequest(email: TemplatedEmail): void {
  // Wiring mistakes, not caller input: fail loudly rather than mail a message without its link or code.
  if (!isEmailEvent(email.event)) throw new Error(`unknown email event ${String(email.event)}`);
  if (email.event === 'verify_otp' && !email.otp) throw new Error('the verify_otp email needs an otp');
  if (email.event !== 'verify_otp' && !email.url) throw new Error(`the ${email.event} email needs a url`);
  if (!email.to) throw new Error('an email needs a recipient');
}

export async function sendTemplatedEmail(deps: EmailDeps, email: TemplatedEmail): Promise<void> {
  checkRequest(email);
  const mailer = deps.mailer ?? createSmtpMailer(deps.config, deps.logger);
  const template = await resolveTemplate(email.event, deps.templateOverrides, email.em);
  const context = buildTemplateContext(deps.config, email);
  await mailer.send({
    to: email.to,
    subject: renderSubject(template.subject, context),
    html: renderTemplate(template.html, context, 'html'),
    text: template.text === undefined ? undefined : renderTemplate(template.text, context, 'none'),
  });
}
