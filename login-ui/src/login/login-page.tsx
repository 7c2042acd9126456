/**
 * Sign in with email or phone number and password (the login operation). A wrong password shows
 * the server's message; an account waiting for verification is offered the way to finish it (resend the
 * email link, or text a code to the phone). When an organization's verified domain can route an email to its
 * SSO (meta is_org_discovery_enabled) the email comes first, alone (org-sso/email-first-step.tsx). A right
 * password an administrator set (create_user) leads to choosing one's own (initial-password-step.tsx).
 */
import { useState } from 'react';
import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { login } from '../api/operations.ts';
import type { Identifier, Meta } from '../api/types.ts';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { identifierRules, identifierModes, parseIdentifier } from '../identifier/identifier.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout, organizationName } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { ReturnNotice } from '../round-trip/return-notice.tsx';
import { PasswordField } from '../password/password-field.tsx';
import { SocialButtons } from '../social/social-buttons.tsx';
import { isMfaStep } from '../mfa/mfa-step.ts';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';
import { PasskeySignInButton, usePasskeyAutofill } from '../passkeys/passkey-sign-in.tsx';
import { UnverifiedAction } from './unverified-action.tsx';
import { EmailFirstStep } from '../org-sso/email-first-step.tsx';
import { InitialPasswordStep, isInitialPasswordRefusal } from './initial-password-step.tsx';
import { resetModes } from '../forgot-password/reset-modes.ts';

interface LoginValues {
  identifier: string;
  password: string;
}

export function LoginPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const modes = identifierModes(meta);
  const onAnswer = useSignInAnswer();
  const passkeys = meta.is_webauthn_enabled;
  const autofill = usePasskeyAutofill(passkeys);
  const { register, handleSubmit, formState, setValue, getValues } = useForm<LoginValues>({ defaultValues: { identifier: '', password: '' } });
  // Email-first: the password step appears once discovery has not sent the person to their organization's SSO.
  const emailFirst = meta.is_org_discovery_enabled && modes.email;
  const [identified, setIdentified] = useState(!emailFirst);
  const mutation = useMutation({
    mutationFn: async (input: { who: Identifier; password: string }) => {
      const answer = await login({ ...input.who, password: input.password });
      // A signed-in user or a second factor to pass (useSignInAnswer); anything else in the server's words.
      if (!answer.user && !isMfaStep(answer)) throw new ApiError(answer.message, 'INCOMPLETE');
      return answer;
    },
    onSuccess: (answer, input) => onAnswer(answer, input.who),
  });
  if (isInitialPasswordRefusal(mutation.error) && mutation.variables) {
    const { who, password } = mutation.variables;
    return <InitialPasswordStep meta={meta} who={who} password={password} onCancel={() => mutation.reset()} />;
  }
  const onSubmit = handleSubmit((values) => {
    const who = parseIdentifier(values.identifier, modes);
    if (who) mutation.mutate({ who, password: values.password });
  });
  const passwordEnabled = modes.email || modes.phone;
  // "Forgot password?" only where a reset can reach someone: by email with SMTP, by text with the SMS provider.
  const reset = resetModes(meta);
  const canReset = reset.email || reset.phone;

  return (
    <AuthLayout
      title={t('login.title', { organization: organizationName })}
      subtitle={t('login.subtitle')}
      footer={
        meta.is_sign_up_enabled && passwordEnabled ? (
          <Text fz="sm" c="dimmed">
            {t('login.noAccount')} <AppLink to="/signup">{t('login.createAccount')}</AppLink>
          </Text>
        ) : null
      }
    >
      <ReturnNotice />
      {passwordEnabled && !identified ? (
        <EmailFirstStep
          modes={modes}
          passkeyAutofill={passkeys}
          initialValue={getValues('identifier')}
          onPassword={(identifier) => {
            setValue('identifier', identifier);
            setIdentified(true);
          }}
        />
      ) : passwordEnabled ? (
        <form onSubmit={onSubmit} noValidate aria-label={t('login.submit')}>
          <Stack gap="md">
            <FormError title={t('passkeys.signInFailed')} error={autofill.error} />
            <FormError
              title={t('login.failed')}
              error={mutation.error}
              action={<UnverifiedAction error={mutation.error} who={mutation.variables?.who} />}
            />
            <IdentifierField
              modes={modes}
              purpose="sign-in"
              passkeyAutofill={passkeys}
              autoFocus={!emailFirst}
              error={formState.errors.identifier?.message ? t(formState.errors.identifier.message) : undefined}
              {...register('identifier', identifierRules(modes))}
            />
            <Stack gap={4}>
              <PasswordField
                label={t('fields.password')}
                autoComplete="current-password"
                autoFocus={emailFirst}
                withAsterisk
                error={formState.errors.password?.message ? t(formState.errors.password.message) : undefined}
                {...register('password', { required: 'validation.required' })}
              />
              {canReset ? (
                <Group justify="flex-end">
                  <AppLink to="/forgot-password">{t('login.forgot')}</AppLink>
                </Group>
              ) : null}
            </Stack>
            <Button type="submit" fullWidth loading={mutation.isPending}>
              {t('login.submit')}
            </Button>
          </Stack>
        </form>
      ) : (
        <Text fz="sm">{t('login.disabled')}</Text>
      )}
      {meta.is_magic_link_login_enabled ? (
        <>
          {passwordEnabled ? <Divider label={t('login.or')} labelPosition="center" /> : null}
          <Button component={Link} to={withRoundTrip('/magic-link')} variant="default" fullWidth>
            {t('login.magicLink')}
          </Button>
        </>
      ) : null}
      {passkeys ? (
        <>
          {passwordEnabled && !meta.is_magic_link_login_enabled ? <Divider label={t('login.or')} labelPosition="center" /> : null}
          <PasskeySignInButton />
        </>
      ) : null}
      <SocialButtons meta={meta} showDivider={passwordEnabled && !meta.is_magic_link_login_enabled && !passkeys} />
    </AuthLayout>
  );
}
