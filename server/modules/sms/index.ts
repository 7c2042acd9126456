/** SMS delivery behind a provider interface; one Twilio-style HTTP implementation (docs/email-and-sms.md). */
import type { Logger } from 'pino';
import type { SmsProvider } from './sms-provider.ts';
import { createTwilioSmsProvider, type TwilioConfig } from './twilio-sms-provider.ts';

export type { SmsProvider } from './sms-provider.ts';
export {
  createTwilioSmsProvider,
  isSmsConfigured,
  missingSmsFlags,
  twilioMessagesUrl,
  type TwilioConfig,
} from './twilio-sms-provider.ts';

/** The provider the flags configure (today the only one); call with ctx.deps.config and ctx.deps.logger. */
export function createSmsProvider(config: TwilioConfig, logger: Logger): SmsProvider {
  return createTwilioSmsProvider(config, logger);
}
