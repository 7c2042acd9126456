/**
 * SMS through a Twilio-style HTTP API (docs/email-and-sms.md): a form-urlencoded POST
 * of To, From and Body to `<base>/2010-04-01/Accounts/<sid>/Messages.json` with HTTP basic auth
 * (API key : API secret). --twilio-api-url sets the base (default https://api.twilio.com), so a
 * compatible gateway or a test sink can stand in.
 *
 * Not configured: failed_precondition naming the missing flags. Refused or unreachable: the status and
 * the provider's error code are logged (never the secret, never the message, which carries a code) and
 * the caller gets a generic internal error.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SmsProvider } from './sms-provider.ts';

export type TwilioConfig = Pick<Config, 'twilioAccountSid' | 'twilioApiKey' | 'twilioApiSecret' | 'twilioSender' | 'twilioApiUrl'>;

const REQUEST_TIMEOUT_MS = 10_000;

const REQUIRED: readonly [keyof TwilioConfig, string][] = [
  ['twilioAccountSid', '--twilio-account-sid'],
  ['twilioApiKey', '--twilio-api-key'],
  ['twilioApiSecret', '--twilio-api-secret'],
  ['twilioSender', '--twilio-sender'],
];

export function missingSmsFlags(config: TwilioConfig): string[] {
  return REQUIRED.filter(([key]) => !config[key]).map(([, flag]) => flag);
}

export function isSmsConfigured(config: TwilioConfig): boolean {
  return missingSmsFlags(config).length === 0;
}

export function twilioMessagesUrl(config: TwilioConfig): string {
  const base = (config.twilioApiUrl || 'https://api.twilio.com').replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(config.twilioAccountSid ?? '')}/Messages.json`;
}

/** The provider's own error code, when its answer is Twilio-shaped JSON; nothing else of the body is kept. */
async function providerErrorCode(res: Response): Promise<string | number | undefined> {
  try {
    const body = (await res.json()) as { code?: unknown };
    return typeof body?.code === 'number' || typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

export function createTwilioSmsProvider(config: TwilioConfig, logger: Logger): SmsProvider {
  return {
    async send(to, body) {
      const missing = missingSmsFlags(config);
      if (missing.length > 0) throw AppError.precondition(`sms is not configured: set ${missing.join(', ')}`);
      if (!to.trim()) throw AppError.invalid('phone number is required');
      const url = twilioMessagesUrl(config);
      const credentials = Buffer.from(`${config.twilioApiKey}:${config.twilioApiSecret}`, 'utf8').toString('base64');
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Basic ${credentials}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: to.trim(), From: config.twilioSender!, Body: body }).toString(),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          redirect: 'error',
        });
      } catch (err) {
        const reason = (err as Error)?.name === 'TimeoutError' ? 'timeout' : ((err as { cause?: { code?: string } })?.cause?.code ?? (err as Error)?.name);
        logger.error({ sms: { host: new URL(url).host, reason } }, 'sms delivery failed');
        throw new AppError('unavailable', 'failed to send sms');
      }
      if (!res.ok) {
        logger.error({ sms: { host: new URL(url).host, status: res.status, providerCode: await providerErrorCode(res) } }, 'sms delivery refused');
        throw new AppError('unavailable', 'failed to send sms');
      }
      await res.body?.cancel();
    },
  };
}
