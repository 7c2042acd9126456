/**
 * Create an account with email or phone number and password (docs/operations.md#signup), as the
 * server's flags allow: is_sign_up_enabled, is_basic_authentication_enabled (email),
 * is_mobile_basic_authentication_enabled (phone), is_strong_password_enabled (the checklist). What comes
 * next is the server's answer: signed in at once, an emailed link to open (check-email screen), or a texted
 * code (verify-phone screen). The application's redirect_uri rides along so the emailed link comes back.
 */
import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signup } from '../api/operations.ts';
import type { Identifier, Meta } from '../api/types.ts';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { identifierRules, identifierModes, parseIdentifier } from '../identifier/identifier.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout, organizationName } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { NewPasswordFields, type NewPasswordValues } from '../password/new-password-fields.tsx';
import { bannerError } from '../password/password-rules.ts';
import { ReturnNotice } from '../round-trip/return-notice.tsx';
import { emailedReturnUri, initialRoundTrip } from '../round-trip/round-trip.ts';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';
import { SocialButtons } from '../social/social-buttons.tsx';

interface SignupValues extends NewPasswordValues {
  identifier: string;
}

export function SignupPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const modes = identifierModes(meta);
  const navigate = useNavigate();
  const onAnswer = useSignInAnswer();
  const { register, handleSubmit, watch, formState } = useForm<SignupValues>({
    defaultValues: { identifier: '', password: '', confirm_password: '' },
  });
  const mutation = useMutation({
    mutationFn: (input: { who: Identifier; password: string; confirm_password: string }) =>
      signup({ ...input.who, password: input.password, confirm_password: input.confirm_password, redirect_uri: emailedReturnUri(initialRoundTrip) }),
    onSuccess: (answer, input) => {
      if (input.who.phone_number !== undefined && answer.should_show_mobile_otp_screen) {
        void navigate(withRoundTrip('/verify-phone'), { state: { phone: input.who.phone_number, sent: true } });
      } else if (input.who.email !== undefined && !answer.user?.email_verified && meta.is_email_verification_enabled) {
        void navigate(withRoundTrip('/check-email'), { state: { email: input.who.email, message: answer.message } });
      } else {
        // A session, or a first-time MFA offer when the instance enforces it.
        onAnswer(answer, input.who);
      }
    },
  });
  const onSubmit = handleSubmit((values) => {
    const who = parseIdentifier(values.identifier, modes);
    if (who) mutation.mutate({ who, password: values.password, confirm_password: values.confirm_password });
  });
  const open = meta.is_sign_up_enabled && (modes.email || modes.phone);

  return (
    <AuthLayout
      title={t('signup.title', { organization: organizationName })}
      subtitle={open ? t('signup.subtitle') : undefined}
      footer={
        <Text fz="sm" c="dimmed">
          {t('signup.haveAccount')} <AppLink to="/">{t('signup.signIn')}</AppLink>
        </Text>
      }
    >
      <ReturnNotice />
      {open ? (
        <form onSubmit={onSubmit} noValidate aria-label={t('signup.submit')}>
          <Stack gap="md">
            <FormError title={t('signup.failed')} error={bannerError(mutation.error)} />
            <IdentifierField
              modes={modes}
              purpose="sign-up"
              autoFocus
              error={formState.errors.identifier?.message ? t(formState.errors.identifier.message) : undefined}
              {...register('identifier', identifierRules(modes))}
            />
            <NewPasswordFields
              register={register}
              watch={watch}
              errors={formState.errors}
              strong={meta.is_strong_password_enabled}
              minStrength={meta.password_min_strength}
              serverError={mutation.error}
            />
            <Button type="submit" fullWidth loading={mutation.isPending}>
              {t('signup.submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Text fz="sm">{t('signup.disabled')}</Text>
      )}
      {/* An upstream sign-in creates an account too, but only while signup is on (the server refuses otherwise). */}
      {meta.is_sign_up_enabled ? <SocialButtons meta={meta} showDivider={open} /> : null}
    </AuthLayout>
  );
}
