/**
 * The first sign-in of an account an administrator created with an initial password: login answered
 * FAILED_PRECONDITION "password change required" and issued nothing. This step asks for the person's own
 * password and sends it with the initial one to change_initial_password, which signs in and answers as
 * login does (a session, or a second factor), so the usual next step follows (useSignInAnswer). The initial
 * password stays in this component's memory only, never in the URL or the history state.
 */
import { Anchor, Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { call } from '../../../ui-shared/contract/public-call.ts';
import type { Identifier, Meta } from '../api/types.ts';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { isMfaStep } from '../mfa/mfa-step.ts';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';
import { NewPasswordFields, type NewPasswordValues } from '../password/new-password-fields.tsx';
import { bannerError } from '../password/password-rules.ts';

/** The server's refusal of a right initial password (accounts/sign-in-policy.ts PASSWORD_CHANGE_REQUIRED_MESSAGE). */
export function isInitialPasswordRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'FAILED_PRECONDITION' && /password change required/i.test(error.message);
}

export function InitialPasswordStep({ meta, who, password, onCancel }: { meta: Meta; who: Identifier; password: string; onCancel: () => void }) {
  const { t } = useTranslation();
  const onAnswer = useSignInAnswer();
  const { register, handleSubmit, watch, formState } = useForm<NewPasswordValues>({ defaultValues: { password: '', confirm_password: '' } });
  const mutation = useMutation({
    mutationFn: async (values: NewPasswordValues) => {
      const params = { ...who, password, new_password: values.password, confirm_new_password: values.confirm_password };
      const answer = await call('change_initial_password', params);
      if (!answer.user && !isMfaStep(answer)) throw new ApiError(answer.message, 'INCOMPLETE');
      return answer;
    },
    onSuccess: (answer) => onAnswer(answer, who),
  });

  return (
    <AuthLayout
      title={t('initialPassword.title')}
      subtitle={t('initialPassword.subtitle')}
      footer={
        <Anchor component="button" type="button" fz="sm" onClick={onCancel}>
          {t('common.backToSignIn')}
        </Anchor>
      }
    >
      <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate aria-label={t('initialPassword.submit')}>
        <Stack gap="md">
          <FormError title={t('initialPassword.failed')} error={bannerError(mutation.error)} />
          <NewPasswordFields register={register} watch={watch} errors={formState.errors} strong={meta.is_strong_password_enabled} minStrength={meta.password_min_strength} serverError={mutation.error} label={t('fields.newPassword')} />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('initialPassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
