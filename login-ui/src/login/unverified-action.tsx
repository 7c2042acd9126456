/**
 * An account that has not finished verification is refused at sign-in (FAILED_PRECONDITION "... not
 * verified"). Instead of a dead end, offer the next step: a new email link, or a texted code and the
 * code screen. Both answer the same whether or not the account exists (the server's rule), so offering
 * them reveals nothing the refusal did not.
 */
import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { resendOtp, resendVerifyEmail } from '../api/operations.ts';
import type { Identifier } from '../api/types.ts';
import { withRoundTrip } from '../layout/app-link.tsx';
import { FormError } from '../layout/form-error.tsx';
import { Notice } from '../layout/notice.tsx';

export function isUnverifiedRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'FAILED_PRECONDITION' && /not verified/i.test(error.message);
}

export function UnverifiedAction({ error, who }: { error: unknown; who?: Identifier }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resend = useMutation({
    mutationFn: async (target: Identifier) => {
      if (target.email !== undefined) return resendVerifyEmail({ email: target.email });
      return resendOtp({ phone_number: target.phone_number });
    },
    onSuccess: (_answer, target) => {
      if (target.phone_number !== undefined) {
        void navigate(withRoundTrip('/verify-phone'), { state: { phone: target.phone_number, sent: true } });
      }
    },
  });
  if (!who || !isUnverifiedRefusal(error)) return null;
  if (resend.isSuccess && who.email !== undefined) return <Notice title={t('login.resent')}>{resend.data.message}</Notice>;
  return (
    <>
      <Button size="xs" variant="white" color="red" loading={resend.isPending} onClick={() => resend.mutate(who)}>
        {who.email !== undefined ? t('login.unverifiedEmail') : t('login.unverifiedPhone')}
      </Button>
      <FormError title={t('common.somethingWrong')} error={resend.error} />
    </>
  );
}
