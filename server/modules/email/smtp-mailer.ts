/**
 * Outgoing mail over SMTP with nodemailer, configured by the --smtp-* flags
 * (docs/email-and-sms.md). Port 465 speaks TLS from the first byte; other ports upgrade with STARTTLS when the
 * server offers it. --smtp-skip-tls-verification accepts any server certificate (self-signed relays).
 *
 * Without --smtp-host nothing can be sent: send() refuses with a failed_precondition that names the flag,
 * so a flow that needs email answers clearly instead of crashing. A delivery failure is logged with the
 * SMTP code and command only (never the credentials or the message, which carries a secret link) and
 * answers a generic internal error.
 */
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text?: string;
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<void>;
}

export type SmtpConfig = Pick<
  Config,
  | 'smtpHost'
  | 'smtpPort'
  | 'smtpUsername'
  | 'smtpPassword'
  | 'smtpSenderEmail'
  | 'smtpSenderName'
  | 'smtpLocalName'
  | 'smtpSkipTlsVerification'
>;

/** Bounded waits, so a dead relay fails a request in seconds rather than minutes (nodemailer's defaults). */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
const IMPLICIT_TLS_PORT = 465;

export function isEmailConfigured(config: Pick<Config, 'smtpHost'>): boolean {
  return Boolean(config.smtpHost);
}

/** Why email cannot be sent with these flags (the flag to set), or undefined when it can. */
export function emailConfigurationProblem(config: Pick<Config, 'smtpHost' | 'smtpSenderEmail'>): string | undefined {
  if (!config.smtpHost) return 'email is not configured: set --smtp-host';
  if (!config.smtpSenderEmail) return 'email is not configured: set --smtp-sender-email';
  return undefined;
}

/** The nodemailer transport options for the flags; exported for the test of the flag mapping. */
export function smtpTransportOptions(config: SmtpConfig) {
  return {
    host: config.smtpHost,
    port: config.smtpPort,
    secure: config.smtpPort === IMPLICIT_TLS_PORT,
    auth: config.smtpUsername ? { user: config.smtpUsername, pass: config.smtpPassword ?? '' } : undefined,
    name: config.smtpLocalName || undefined,
    tls: { rejectUnauthorized: !config.smtpSkipTlsVerification },
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // Message content never reads local files or fetches URLs (attachments are not part of any template).
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The SMTP error fields that are safe to log: no credentials, no message body. */
function describeSmtpFailure(err: unknown): Record<string, unknown> {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    responseCode: typeof e?.responseCode === 'number' ? e.responseCode : undefined,
    // AUTH commands are logged by name only; nodemailer does not put the credentials in `command`.
    command: typeof e?.command === 'string' ? e.command.split(' ')[0] : undefined,
    reason: typeof e?.message === 'string' ? e.message.split('\n')[0] : undefined,
  };
}

export function createSmtpMailer(config: SmtpConfig, logger: Logger): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(message) {
      const missing = emailConfigurationProblem(config);
      if (missing) throw AppError.precondition(missing);
      // nodemailer (about 40 modules) loads with the first mail, not at start: most servers never send one.
      transport ??= (await import('nodemailer')).createTransport(smtpTransportOptions(config));
      try {
        await transport.sendMail({
          from: { name: config.smtpSenderName, address: config.smtpSenderEmail! },
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
        });
      } catch (err) {
        const failure = describeSmtpFailure(err);
        const secret = config.smtpPassword;
        if (secret && typeof failure.reason === 'string') failure.reason = failure.reason.split(secret).join('[redacted]');
        logger.error({ smtp: failure, host: config.smtpHost, port: config.smtpPort }, 'email delivery failed');
        throw new AppError('unavailable', 'failed to send email');
      }
    },
  };
}
