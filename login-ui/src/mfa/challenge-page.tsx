/**
 * The second-factor challenge of a sign-in (docs/operations.md#login "MFA challenge flags"): one screen
 * per method the server asked for, and a picker first when it offered several (the AuthResponse of docs/api-overview.md#resources-and-fields:
 * should_show_totp_screen, should_show_email_otp_screen, should_show_mobile_otp_screen,
 * should_offer_webauthn_mfa_verify). "I lost my authenticator" (lock_mfa) is offered on the app and passkey
 * screens only when there is no email or SMS code to fall back on, the one case the server allows it.
 */
import { Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { PasskeyChallenge } from '../passkeys/passkey-challenge.tsx';
import { LockedNotice, LockMfa } from './lock-mfa.tsx';
import { MethodChoice } from './method-choice.tsx';
import { challengesOf, type ChallengeMethod, type MfaStep } from './mfa-step.ts';
import { OtpChallenge } from './otp-challenge.tsx';
import { TotpChallenge } from './totp-challenge.tsx';

const TITLES: Record<ChallengeMethod, string> = {
  totp: 'mfa.totp.title',
  webauthn: 'mfa.passkey.title',
  email_otp: 'mfa.email.title',
  sms_otp: 'mfa.sms.title',
};

export function ChallengePage({ step }: { step: MfaStep }) {
  const { t } = useTranslation();
  const methods = challengesOf(step.flags);
  const [chosen, setChosen] = useState<ChallengeMethod | undefined>(methods.length === 1 ? methods[0] : undefined);
  const [locked, setLocked] = useState(false);
  const hasCodeFallback = methods.includes('email_otp') || methods.includes('sms_otp');
  const footer = (
    <>
      {chosen && methods.length > 1 ? (
        <Anchor component="button" type="button" fz="sm" onClick={() => setChosen(undefined)}>
          {t('mfa.otherMethod')}
        </Anchor>
      ) : null}
      <AppLink to="/">{t('common.backToSignIn')}</AppLink>
    </>
  );

  if (locked) {
    return (
      <AuthLayout title={t('mfa.lock.doneHeading')} footer={<AppLink to="/">{t('common.backToSignIn')}</AppLink>}>
        <LockedNotice />
      </AuthLayout>
    );
  }
  if (!chosen) {
    return (
      <AuthLayout title={t('mfa.pick.title')} subtitle={t('mfa.pick.subtitle')} footer={footer}>
        <MethodChoice
          label={t('mfa.pick.title')}
          items={methods.map((method) => ({ method, title: t(`mfa.methods.${method}.title`), description: t(`mfa.methods.${method}.challenge`) }))}
          onChoose={setChosen}
        />
      </AuthLayout>
    );
  }
  // When codes are the only factors the sign-in already sent the first one, by email when there is one
  // (accounts/mfa-gate.ts); otherwise the screen asks for a code when it opens.
  const codesOnly = methods.every((method) => method === 'email_otp' || method === 'sms_otp');
  const sentAlready = codesOnly && chosen === (methods.includes('email_otp') ? 'email_otp' : 'sms_otp');
  const sendFirst = !sentAlready;
  return (
    <AuthLayout title={t(TITLES[chosen])} subtitle={t(`${TITLES[chosen].replace(/\.title$/, '')}.subtitle`)} footer={footer}>
      <Stack gap="md" data-testid={`mfa-${chosen}`}>
        {chosen === 'totp' ? <TotpChallenge step={step} /> : null}
        {chosen === 'webauthn' ? <PasskeyChallenge step={step} /> : null}
        {chosen === 'email_otp' ? <OtpChallenge step={step} channel="email" sendFirst={sendFirst} /> : null}
        {chosen === 'sms_otp' ? <OtpChallenge step={step} channel="sms" sendFirst={sendFirst} /> : null}
        {(chosen === 'totp' || chosen === 'webauthn') && !hasCodeFallback ? <LockMfa step={step} onLocked={() => setLocked(true)} /> : null}
      </Stack>
    </AuthLayout>
  );
}
