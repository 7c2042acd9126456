/**
 * The two ways a secret leaves this server, composed for the flows: a verification link by email
 * (createVerification + email-links + sendTemplatedEmail) and a one-time code by email or SMS
 * (createOtp + the verify_otp template or the SMS provider). Call with ctx.em and ctx.deps.
 *
 * The row is flushed before the message is sent, so a link never arrives for a request that was not
 * stored; inside a transaction a rollback after sending leaves a dead link, which is harmless. The
 * store* variants store now and hand back the sending, so an operation can send after its transaction
 * commits (HandlerContext.afterCommit) and never hold the database while an SMTP or SMS server answers.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import type { Clock } from '../../kernel/deps.ts';
import type { Sealer } from '../../kernel/encryption.ts';
import { emailLinkFor, sendTemplatedEmail, type EmailDeps, type EmailEvent, type TemplateUser } from '../email/index.ts';
import { createSmsProvider, type SmsProvider, type TwilioConfig } from '../sms/index.ts';
import { createVerification, DEFAULT_VERIFICATION_TTL_SECONDS } from './verification.service.ts';
import { createOtp, DEFAULT_OTP_TTL_SECONDS, type OtpTarget } from './otp.service.ts';

export type VerificationDeps = EmailDeps & {
  readonly config: EmailDeps['config'] & Pick<Config, 'url' | 'resetPasswordUrl'>;
  readonly clock: Clock;
};

export interface VerificationEmail {
  event: Exclude<EmailEvent, 'verify_otp'>;
  /** Recipient; also the email the request is stored under. */
  to: string;
  user: TemplateUser;
  userId?: string | null;
  redirectUri?: string | null;
  ttlSeconds?: number;
  nonce?: string;
}

/** Stores a verification request and emails its link (under --url, carrying redirect_uri). */
export async function sendVerificationEmail(em: EntityManager, deps: VerificationDeps, request: VerificationEmail): Promise<void> {
  await (await storeVerificationEmail(em, deps, request))();
}

/** Stores a verification request now; the answer sends its email (without the unit of work) when called. */
export async function storeVerificationEmail(em: EntityManager, deps: VerificationDeps, request: VerificationEmail): Promise<() => Promise<void>> {
  const token = await createVerification(em, deps.clock, {
    identifier: request.event,
    email: request.to,
    userId: request.userId,
    redirectUri: request.redirectUri,
    ttlSeconds: request.ttlSeconds ?? DEFAULT_VERIFICATION_TTL_SECONDS,
    nonce: request.nonce,
  });
  const url = emailLinkFor(deps.config, request.event, { token, redirectUri: request.redirectUri ?? undefined });
  return () => sendTemplatedEmail(deps, { event: request.event, to: request.to, user: request.user, url });
}

export interface OtpMessage extends OtpTarget {
  purpose: string;
  user: TemplateUser;
  ttlSeconds?: number;
}

/** Stores a code for the target and emails it with the verify_otp template to `email`. */
export async function sendOtpEmail(
  em: EntityManager,
  deps: EmailDeps & { readonly clock: Clock; readonly sealer: Sealer },
  message: OtpMessage & { email: string },
): Promise<void> {
  const otp = await createOtp(em, deps.clock, deps.sealer, message);
  await sendTemplatedEmail(deps, { event: 'verify_otp', to: message.email, user: message.user, otp, em });
}

/** Stores a code now; the answer emails it with the verify_otp template (without the unit of work) when called. */
export async function storeOtpEmail(
  em: EntityManager,
  deps: EmailDeps & { readonly clock: Clock; readonly sealer: Sealer },
  message: OtpMessage & { email: string },
): Promise<() => Promise<void>> {
  const otp = await createOtp(em, deps.clock, deps.sealer, message);
  return () => sendTemplatedEmail(deps, { event: 'verify_otp', to: message.email, user: message.user, otp });
}

export type SmsDeps = Pick<EmailDeps, 'logger'> & {
  readonly config: TwilioConfig & Pick<Config, 'organizationName'>;
  readonly clock: Clock;
  readonly sealer: Sealer;
  readonly sms?: SmsProvider;
};

export function otpSmsBody(organizationName: string, otp: string, ttlSeconds: number): string {
  return `${organizationName}: your verification code is ${otp}. It expires in ${Math.round(ttlSeconds / 60)} minutes.`;
}

/** Stores a code for the target and texts it to `phone`. */
export async function sendOtpSms(em: EntityManager, deps: SmsDeps, message: Omit<OtpMessage, 'user'> & { phone: string }): Promise<void> {
  await (await storeOtpSms(em, deps, message))();
}

/** Stores a code now; the answer texts it when called. */
export async function storeOtpSms(em: EntityManager, deps: SmsDeps, message: Omit<OtpMessage, 'user'> & { phone: string }): Promise<() => Promise<void>> {
  const ttlSeconds = message.ttlSeconds ?? DEFAULT_OTP_TTL_SECONDS;
  const otp = await createOtp(em, deps.clock, deps.sealer, { ...message, ttlSeconds });
  const sms = deps.sms ?? createSmsProvider(deps.config, deps.logger);
  return () => sms.send(message.phone, otpSmsBody(deps.config.organizationName, otp, ttlSeconds));
}
