/**
 * "Email or phone number": which of the two this server accepts (meta: is_basic_authentication_enabled,
 * is_mobile_basic_authentication_enabled), and what a typed value is. A value with an @ is an email;
 * otherwise a phone number with its country code (docs/configuration.md#defaults: at least 10 characters).
 */
import type { Identifier, Meta } from '../api/types.ts';

export interface IdentifierModes {
  email: boolean;
  phone: boolean;
}

export function identifierModes(meta: Pick<Meta, 'is_basic_authentication_enabled' | 'is_mobile_basic_authentication_enabled'>): IdentifierModes {
  return { email: meta.is_basic_authentication_enabled, phone: meta.is_mobile_basic_authentication_enabled };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9\s().-]{8,}[0-9]$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function looksLikePhone(value: string): boolean {
  return PHONE.test(value.trim());
}

/** The typed value as the operation's input, or undefined when it fits no accepted kind. */
export function parseIdentifier(value: string, modes: IdentifierModes): Identifier | undefined {
  const trimmed = value.trim();
  if (modes.email && trimmed.includes('@')) return looksLikeEmail(trimmed) ? { email: trimmed } : undefined;
  // Spaces, dots and brackets are how people write numbers; the account holds the digits as typed otherwise.
  if (modes.phone && looksLikePhone(trimmed)) return { phone_number: trimmed.replace(/[\s().-]/g, '') };
  return undefined;
}

/** Catalogue key of the message for a value that fits no accepted kind. */
export function identifierErrorKey(modes: IdentifierModes): string {
  if (modes.email && modes.phone) return 'validation.emailOrPhone';
  return modes.phone ? 'validation.phone' : 'validation.email';
}

/**
 * react-hook-form rules for an identifier field: required, and an email or phone number the enabled modes
 * accept. Messages are catalogue keys, translated where the error is shown.
 */
export function identifierRules(modes: IdentifierModes) {
  return {
    required: 'validation.required',
    validate: (value: string) => (parseIdentifier(value, modes) ? true : identifierErrorKey(modes)),
  };
}
