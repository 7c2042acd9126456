/**
 * Mantine's PasswordInput with its show/hide button named from the catalogue (its built-in name is English
 * only). The toggle stays out of the Tab order (Mantine's default), so Tab goes from the field to the next.
 */
import { forwardRef } from 'react';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const PasswordField = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordField(props, ref) {
  const { t } = useTranslation();
  return <PasswordInput ref={ref} visibilityToggleButtonProps={{ 'aria-label': t('fields.togglePassword') }} {...props} />;
});
