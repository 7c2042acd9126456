/**
 * The first-time offer of a second factor (docs/api-overview.md#states-and-transitions, "MFA offer pending, token withheld"): the
 * instance enforces MFA, or the person asked for it, and they have no factor yet. They set one up here with
 * the mfa cookie of the pending sign-in, which signs them in once it is confirmed; or they skip
 * (skip_mfa_setup), which is not offered when the instance enforces MFA (meta is_mfa_enforced: refused).
 */
import { Anchor, Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { skipMfaSetup } from '../api/mfa-operations.ts';
import type { AuthAnswer, Meta } from '../api/types.ts';
import { AppLink } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { PasskeyEnrolment } from '../passkeys/passkey-enrolment.tsx';
import { MethodChoice } from './method-choice.tsx';
import { MfaError } from './mfa-error.tsx';
import { offersOf, whoFields, type MfaStep, type OfferMethod } from './mfa-step.ts';
import { offerEnrolment } from './offer-enrolment.ts';
import { OtpEnrolment } from './otp-enrolment.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';
import { useSignInAnswer } from './use-sign-in-answer.ts';

const TITLES: Record<OfferMethod, string> = {
  totp: 'mfa.enrol.title',
  webauthn: 'passkeys.addTitle',
  email_otp: 'mfa.enrolEmail.title',
  sms_otp: 'mfa.enrolSms.title',
};

export function OfferPage({ step, meta }: { step: MfaStep; meta: Meta }) {
  const { t } = useTranslation();
  const methods = offersOf(step.flags, meta);
  const [chosen, setChosen] = useState<OfferMethod | undefined>();
  const onAnswer = useSignInAnswer();
  const done = (answer: AuthAnswer) => {
    onAnswer(answer, step.who);
  };
  const skip = useMutation({ mutationFn: () => skipMfaSetup(whoFields(step.who)), onSuccess: done });
  const footer = (
    <>
      {chosen ? (
        <Anchor component="button" type="button" fz="sm" onClick={() => setChosen(undefined)}>
          {t('mfa.offer.otherMethod')}
        </Anchor>
      ) : null}
      <AppLink to="/">{t('common.backToSignIn')}</AppLink>
    </>
  );

  if (chosen) {
    return (
      <AuthLayout title={t(TITLES[chosen])} footer={footer}>
        <Stack gap="md" data-testid={`mfa-offer-${chosen}`}>
          {chosen === 'totp' ? <TotpEnrolment who={step.who} ready={offerEnrolment()} onDone={done} /> : null}
          {chosen === 'webauthn' ? <PasskeyEnrolment who={step.who} onDone={done} /> : null}
          {chosen === 'email_otp' ? <OtpEnrolment channel="email" who={step.who} destination={step.who?.email} onDone={done} /> : null}
          {chosen === 'sms_otp' ? <OtpEnrolment channel="sms" who={step.who} destination={step.who?.phone_number} onDone={done} /> : null}
        </Stack>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title={t('mfa.offer.title')}
      subtitle={meta.is_mfa_enforced ? t('mfa.offer.subtitleRequired') : t('mfa.offer.subtitle')}
      footer={footer}
    >
      <Stack gap="md" data-testid="mfa-offer">
        <MfaError title={t('mfa.offer.skipFailed')} error={skip.error} />
        <MethodChoice
          label={t('mfa.offer.title')}
          items={methods.map((method) => ({ method, title: t(`mfa.methods.${method}.title`), description: t(`mfa.methods.${method}.setup`) }))}
          onChoose={(method) => setChosen(method)}
        />
        {meta.is_mfa_enforced ? null : (
          <Button variant="subtle" color="gray" fullWidth loading={skip.isPending} onClick={() => skip.mutate()}>
            {t('mfa.offer.skip')}
          </Button>
        )}
      </Stack>
    </AuthLayout>
  );
}
