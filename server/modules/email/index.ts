/** Email: the six event templates, link building from --url, and SMTP delivery (docs/events.md). */
export { EMAIL_EVENTS, isEmailEvent, type EmailEvent } from './email-events.ts';
export { renderTemplate, renderSubject, escapeHtml, type TemplateContext, type Escaping } from './render-template.ts';
export { BUILT_IN_TEMPLATES, type EmailTemplate } from './built-in-templates.ts';
export { resolveTemplate, noTemplateOverrides, type TemplateOverrideLookup } from './template-overrides.ts';
export { publicBaseUrl, verifyEmailLink, resetPasswordLink, emailLinkFor, type LinkParams } from './email-links.ts';
export {
  createSmtpMailer,
  isEmailConfigured,
  emailConfigurationProblem,
  smtpTransportOptions,
  type Mailer,
  type OutgoingEmail,
  type SmtpConfig,
} from './smtp-mailer.ts';
export {
  sendTemplatedEmail,
  buildTemplateContext,
  type EmailDeps,
  type TemplatedEmail,
  type TemplateUser,
} from './send-templated-email.ts';
