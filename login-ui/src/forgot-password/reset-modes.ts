/**
 * How a password reset can reach someone on this server (meta): by email when mail can be sent, by a texted
 * code when phone sign-in is on and texts can be sent. With neither, the sign-in page offers no reset.
 */
import type { Meta } from '../api/types.ts';
import type { IdentifierModes } from '../identifier/identifier.ts';

export function resetModes(
  meta: Pick<Meta, 'is_email_service_enabled' | 'is_sms_service_enabled' | 'is_mobile_basic_authentication_enabled'>,
): IdentifierModes {
  return { email: meta.is_email_service_enabled, phone: meta.is_mobile_basic_authentication_enabled && meta.is_sms_service_enabled };
}
