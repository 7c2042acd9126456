/**
 * A draft rendered the way a real mail is (email/send-templated-email.ts buildTemplateContext and the same
 * renderer, so the same escaping), with sample values in place of a user, a link and a code. The link is
 * built under --url with a made-up token: nothing is stored and nothing is sent.
 */
import type { Config } from '../../config/flags.ts';
import { buildTemplateContext, emailLinkFor, renderSubject, renderTemplate, type EmailEvent } from '../email/index.ts';

const SAMPLE_USER = {
  id: '00000000-0000-4000-8000-000000000000',
  email: 'jane.doe@example.com',
  email_verified: true,
  given_name: 'Jane',
  family_name: 'Doe',
  nickname: 'jane',
  preferred_username: 'jane.doe@example.com',
  signup_methods: 'basic_auth',
  phone_number_verified: false,
};

export function previewTemplate(
  config: Pick<Config, 'organizationName' | 'organizationLogo' | 'url' | 'resetPasswordUrl'>,
  event: EmailEvent,
  subject: string,
  template: string,
): { subject: string; html: string } {
  const url = event === 'verify_otp' ? undefined : emailLinkFor(config, event, { token: 'sample-token' });
  const context = buildTemplateContext(config, { user: SAMPLE_USER, url, otp: event === 'verify_otp' ? '123456' : undefined });
  return { subject: renderSubject(subject, context), html: renderTemplate(template, context, 'html') };
}
