/**
 * New password + confirmation with the policy shown as a live checklist (signup and reset). Registered on
 * the caller's react-hook-form form; the checklist is linked to the field (aria-describedby).
 */
import { List, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPointFilled } from '@tabler/icons-react';
import { useId } from 'react';
import type { FieldErrors, UseFormRegister, UseFormWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './password-field.tsx';
import { passwordRules, ruleMet, validatePassword } from './password-rules.ts';

export interface NewPasswordValues {
  password: string;
  confirm_password: string;
}

export interface NewPasswordFieldsProps<T extends NewPasswordValues> {
  register: UseFormRegister<T>;
  watch: UseFormWatch<T>;
  errors: FieldErrors<T>;
  strong: boolean;
  label?: string;
}

export function NewPasswordFields<T extends NewPasswordValues>({ register, watch, errors, strong, label }: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  const rulesId = useId();
  // The generic form type narrows to the two fields this component owns.
  const reg = register as unknown as UseFormRegister<NewPasswordValues>;
  const password = (watch as unknown as UseFormWatch<NewPasswordValues>)('password') ?? '';
  const fieldErrors = errors as FieldErrors<NewPasswordValues>;
  return (
    <Stack gap="sm">
      <PasswordField
        label={label ?? t('fields.password')}
        autoComplete="new-password"
        withAsterisk
        aria-describedby={rulesId}
        error={fieldErrors.password?.message ? t(fieldErrors.password.message) : undefined}
        {...reg('password', {
          required: 'validation.required',
          validate: (value) => validatePassword(value, strong),
        })}
      />
      <Stack gap={4} id={rulesId}>
        <Text fz="xs" c="dimmed">
          {t('passwordRules.heading')}
        </Text>
        <List spacing={2} size="xs" center>
          {passwordRules(strong).map((rule) => {
            const met = ruleMet(rule, password);
            return (
              <List.Item
                key={rule}
                icon={
                  <ThemeIcon size={16} radius="xl" color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'} aria-hidden>
                    {met ? <IconCheck size={11} /> : <IconPointFilled size={10} />}
                  </ThemeIcon>
                }
              >
                <Text fz="xs" c={met ? 'teal.9' : 'gray.7'} span>
                  {t(`passwordRules.${rule}`)}
                </Text>
                <VisuallyHidden>{` (${met ? t('passwordRules.met') : t('passwordRules.notMet')})`}</VisuallyHidden>
              </List.Item>
            );
          })}
        </List>
      </Stack>
      <PasswordField
        label={t('fields.confirmPassword')}
        autoComplete="new-password"
        withAsterisk
        error={fieldErrors.confirm_password?.message ? t(fieldErrors.confirm_password.message) : undefined}
        {...reg('confirm_password', {
          required: 'validation.required',
          validate: (value, values) => value === values.password || 'validation.passwordsDiffer',
        })}
      />
    </Stack>
  );
}
