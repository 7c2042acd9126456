/**
 * The one field for "who are you": labelled Email, Phone number, or Email or phone number after the
 * server's flags, with the input type and autocomplete hints a password manager and a phone keyboard use.
 */
import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IdentifierModes } from './identifier.ts';

export interface IdentifierFieldProps extends Omit<TextInputProps, 'label' | 'type'> {
  modes: IdentifierModes;
  /** "username" on sign-in (password managers pair it with the password), "email"/"tel" on sign-up. */
  purpose: 'sign-in' | 'sign-up';
  /** Offer the site's passkeys in this field's suggestions (WebAuthn conditional mediation: `webauthn` token). */
  passkeyAutofill?: boolean;
}

export const IdentifierField = forwardRef<HTMLInputElement, IdentifierFieldProps>(function IdentifierField({ modes, purpose, passkeyAutofill, ...props }, ref) {
  const { t } = useTranslation();
  const both = modes.email && modes.phone;
  const label = both ? t('fields.emailOrPhone') : modes.phone ? t('fields.phone') : t('fields.email');
  const type = both ? 'text' : modes.phone ? 'tel' : 'email';
  const base = purpose === 'sign-in' ? 'username' : modes.phone && !modes.email ? 'tel' : 'email';
  const autoComplete = passkeyAutofill ? `${base} webauthn` : base;
  const placeholder = modes.email ? t('fields.emailPlaceholder') : t('fields.phonePlaceholder');
  return (
    <TextInput
      ref={ref}
      label={label}
      type={type}
      autoComplete={autoComplete}
      placeholder={placeholder}
      description={modes.phone && !modes.email ? t('fields.phoneDescription') : undefined}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      required
      {...props}
    />
  );
});
