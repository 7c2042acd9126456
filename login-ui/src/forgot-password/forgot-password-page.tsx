/**
 * Start a password reset (forgot_password): an email gets a single-use link to
 * /app/reset-password (or --reset-password-url); a phone number gets a texted code, entered on the reset
 * screen. The server answers the same for known and unknown accounts, so the screen says "if".
 */
import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { forgotPassword } from '../api/operations.ts';
import type { Identifier, Meta } from '../api/types.ts';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { identifierRules, parseIdentifier, type IdentifierModes } from '../identifier/identifier.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout, organizationName } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { RichText } from '../layout/rich-text.tsx';
import { Notice } from '../layout/notice.tsx';
import { resetModes } from './reset-modes.ts';
import { emailedReturnUri, initialRoundTrip } from '../round-trip/round-trip.ts';

export function ForgotPasswordPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modes: IdentifierModes = resetModes(meta);
  const { register, handleSubmit, formState } = useForm<{ identifier: string }>({ defaultValues: { identifier: '' } });
  const mutation = useMutation({
    mutationFn: (who: Identifier) => forgotPassword({ ...who, redirect_uri: who.email !== undefined ? emailedReturnUri(initialRoundTrip) : undefined }),
    onSuccess: (_answer, who) => {
      if (who.phone_number !== undefined) void navigate(withRoundTrip('/reset-password'), { state: { phone: who.phone_number } });
    },
  });
  const footer = <AppLink to="/">{t('common.backToSignIn')}</AppLink>;

  if (!modes.email && !modes.phone) {
    // Reached by a bookmark or a typed address: the sign-in page offers no reset here.
    return (
      <AuthLayout title={t('forgotPassword.unavailableTitle')} footer={footer}>
        <Text fz="sm" data-testid="forgot-password-unavailable">{t('forgotPassword.unavailableBody', { organization: organizationName })}</Text>
      </AuthLayout>
    );
  }

  if (mutation.isSuccess && mutation.variables.email !== undefined) {
    return (
      <AuthLayout title={t('forgotPassword.sentTitle')} footer={footer}>
        <Stack gap="md" data-testid="forgot-password-sent">
          <Notice title={mutation.data.message} />
          <Text fz="sm"><RichText i18nKey="forgotPassword.sentBody" name="email" value={mutation.variables.email} /></Text>
        </Stack>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('forgotPassword.title')} subtitle={t('forgotPassword.subtitle')} footer={footer}>
      <form
        onSubmit={handleSubmit((values) => {
          const who = parseIdentifier(values.identifier, modes);
          if (who) mutation.mutate(who);
        })}
        noValidate
        aria-label={t('forgotPassword.submit')}
      >
        <Stack gap="md">
          <FormError title={t('forgotPassword.failed')} error={mutation.error} />
          <IdentifierField
            modes={modes}
            purpose="sign-in"
            autoFocus
            error={formState.errors.identifier?.message ? t(formState.errors.identifier.message) : undefined}
            {...register('identifier', identifierRules(modes))}
          />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('forgotPassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
