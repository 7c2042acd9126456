/** One icon per second factor, the same on the picker, the offer and the Security page. */
import { IconDeviceMobileMessage, IconFingerprint, IconMail, IconShieldCheck } from '@tabler/icons-react';
import type { ChallengeMethod } from './mfa-step.ts';

export function MethodIcon({ method, size = 20 }: { method: ChallengeMethod; size?: number }) {
  if (method === 'webauthn') return <IconFingerprint size={size} aria-hidden />;
  if (method === 'email_otp') return <IconMail size={size} aria-hidden />;
  if (method === 'sms_otp') return <IconDeviceMobileMessage size={size} aria-hidden />;
  return <IconShieldCheck size={size} aria-hidden />;
}
