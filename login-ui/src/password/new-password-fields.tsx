/**
 * New password + confirmation with the policy shown as a live checklist (signup, reset, the replacement of
 * an initial password). Registered on the caller's react-hook-form form; the checklist is linked to the
 * field (aria-describedby). The rules only the server checks (docs/passwords.md) are listed as checked on
 * submit; when the server refuses the password for one of them, the field shows why until it is edited.
 */
import { List, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPointFilled, IconShield, IconX } from '@tabler/icons-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { FieldErrors, UseFormRegister, UseFormWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './password-field.tsx';
import { brokenServerRule, passwordRules, ruleMet, serverPasswordRules, validatePassword, type ServerPasswordRule } from './password-rules.ts';

export interface NewPasswordValues {
  password: string;
  confirm_password: string;
}

export interface NewPasswordFieldsProps<T extends NewPasswordValues> {
  register: UseFormRegister<T>;
  watch: UseFormWatch<T>;
  errors: FieldErrors<T>;
  strong: boolean;
  /** meta.password_min_strength: 0 when the server sets no minimum. */
  minStrength?: number;
  /** The last submission's failure, if any: a broken server-side rule is shown by the field. */
  serverError?: unknown;
  label?: string;
}

const SERVER_RULE_MESSAGES: Record<ServerPasswordRule, string> = {
  common: 'validation.passwordCommon',
  strength: 'validation.passwordWeak',
};

function RuleItem({ state, children }: { state: 'met' | 'unmet' | 'on-submit' | 'broken'; children: ReactNode }) {
  const { t } = useTranslation();
  const look = {
    met: { color: 'teal', variant: 'filled', icon: <IconCheck size={11} />, text: 'teal.9', said: t('passwordRules.met') },
    unmet: { color: 'gray', variant: 'light', icon: <IconPointFilled size={10} />, text: 'gray.7', said: t('passwordRules.notMet') },
    'on-submit': { color: 'blue', variant: 'light', icon: <IconShield size={11} />, text: 'gray.7', said: t('passwordRules.checkedOnSubmit') },
    broken: { color: 'red', variant: 'filled', icon: <IconX size={11} />, text: 'red.8', said: t('passwordRules.notMet') },
  }[state];
  return (
    <List.Item
      icon={
        <ThemeIcon size={16} radius="xl" color={look.color} variant={look.variant} aria-hidden>
          {look.icon}
        </ThemeIcon>
      }
    >
      <Text fz="xs" c={look.text} span>
        {children}
      </Text>
      <VisuallyHidden>{` (${look.said})`}</VisuallyHidden>
    </List.Item>
  );
}

export function NewPasswordFields<T extends NewPasswordValues>({ register, watch, errors, strong, minStrength = 0, serverError, label }: NewPasswordFieldsProps<T>) {
  const { t } = useTranslation();
  const rulesId = useId();
  // The generic form type narrows to the two fields this component owns.
  const reg = register as unknown as UseFormRegister<NewPasswordValues>;
  const password = (watch as unknown as UseFormWatch<NewPasswordValues>)('password') ?? '';
  const fieldErrors = errors as FieldErrors<NewPasswordValues>;
  // A server refusal is about the password that was submitted: it stands until the password changes.
  const [refused, setRefused] = useState<{ rule: ServerPasswordRule; password: string } | undefined>();
  useEffect(() => {
    const rule = brokenServerRule(serverError);
    setRefused(rule ? { rule, password } : undefined);
    // Only a new failure records the password it was about; typing does not.
  }, [serverError]);
  const broken = refused && refused.password === password ? refused.rule : undefined;
  const clientError = fieldErrors.password?.message ? t(fieldErrors.password.message) : undefined;
  return (
    <Stack gap="sm">
      <PasswordField
        label={label ?? t('fields.password')}
        autoComplete="new-password"
        withAsterisk
        aria-describedby={rulesId}
        error={clientError ?? (broken ? t(SERVER_RULE_MESSAGES[broken]) : undefined)}
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
          {passwordRules(strong).map((rule) => (
            <RuleItem key={rule} state={ruleMet(rule, password) ? 'met' : 'unmet'}>
              {t(`passwordRules.${rule}`)}
            </RuleItem>
          ))}
          {serverPasswordRules(minStrength).map((rule) => (
            <RuleItem key={rule} state={broken === rule ? 'broken' : 'on-submit'}>
              {t(`passwordRules.${rule}`)}
            </RuleItem>
          ))}
        </List>
        <Text fz="xs" c="dimmed">
          {t('passwordRules.serverNote')}
        </Text>
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
