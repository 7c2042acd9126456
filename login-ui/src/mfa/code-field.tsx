/**
 * The field for a one-time code: six digits from an app, an email or a text (RFC 6238 / the server's OTPs),
 * or a recovery code (`XXXXX-XXXXX`). `one-time-code` lets a phone offer a texted code from the keyboard.
 */
import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';

export const SIX_DIGITS = /^\d{6}$/;
/** docs/api-overview.md#resources-and-fields: recovery codes are shown as two groups of five letters and digits. */
export const RECOVERY_CODE = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

export const CodeField = forwardRef<HTMLInputElement, TextInputProps & { recovery?: boolean }>(function CodeField({ recovery, ...props }, ref) {
  return (
    <TextInput
      ref={ref}
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      autoCapitalize={recovery ? 'characters' : 'none'}
      spellCheck={false}
      maxLength={recovery ? 11 : 6}
      withAsterisk
      autoFocus
      styles={{
        input: recovery
          ? { letterSpacing: '0.08em', fontFamily: 'var(--mantine-font-family-monospace)', textTransform: 'uppercase' }
          : { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' },
      }}
      {...props}
    />
  );
});

/** A recovery code as the server stores it: upper case with its dash. */
export function normalRecoveryCode(value: string): string {
  const bare = value.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
}
