/**
 * Passwordless sign-in (docs/operations.md#magic_link_login; meta is_magic_link_login_enabled). The
 * server answers the same for every address (no account enumeration), so the "sent" screen says "if".
 * The emailed link goes through GET /verify_email, which signs the person in and lands on the
 * application's redirect_uri (emailedReturnUri) or on /app.
 */
import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { magicLinkLogin } from '../api/operations.ts';
import type { Meta } from '../api/types.ts';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { looksLikeEmail } from '../identifier/identifier.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout, organizationName } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { RichText } from '../layout/rich-text.tsx';
import { Notice } from '../layout/notice.tsx';
import { ReturnNotice } from '../round-trip/return-notice.tsx';
import { emailedReturnUri, initialRoundTrip } from '../round-trip/round-trip.ts';

const EMAIL_ONLY = { email: true, phone: false };

export function MagicLinkPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const { register, handleSubmit, formState } = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const mutation = useMutation({
    mutationFn: (email: string) => magicLinkLogin({ email, redirect_uri: emailedReturnUri(initialRoundTrip) }),
  });
  if (!meta.is_magic_link_login_enabled) return <Navigate to={withRoundTrip('/')} replace />;
  const footer = <AppLink to="/">{t('magicLink.usePassword')}</AppLink>;

  if (mutation.isSuccess) {
    return (
      <AuthLayout title={t('magicLink.sentTitle')} footer={footer}>
        <Stack gap="md" data-testid="magic-link-sent">
          <Notice title={mutation.data.message} />
          <Text fz="sm"><RichText i18nKey="magicLink.sentBody" name="email" value={mutation.variables} values={{ organization: organizationName }} /></Text>
        </Stack>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('magicLink.title')} subtitle={t('magicLink.subtitle')} footer={footer}>
      <ReturnNotice />
      <form onSubmit={handleSubmit((values) => mutation.mutate(values.email.trim()))} noValidate aria-label={t('magicLink.submit')}>
        <Stack gap="md">
          <FormError title={t('magicLink.failed')} error={mutation.error} />
          <IdentifierField
            modes={EMAIL_ONLY}
            purpose="sign-up"
            autoFocus
            error={formState.errors.email?.message ? t(formState.errors.email.message) : undefined}
            {...register('email', { required: 'validation.required', validate: (value) => looksLikeEmail(value) || 'validation.email' })}
          />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('magicLink.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
