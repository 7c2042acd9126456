/**
 * The signed-in person's Security page: the second factors this instance offers (meta), which of them are
 * set up (User enrolled_mfa_methods), a way to add each (docs/api-overview.md#states-and-transitions enrolments: an authenticator
 * app, email or SMS codes, passkeys), their passkeys with delete, and their own "ask for a second factor"
 * switch. Enrolling here issues no token (docs/api-overview.md#resources-and-fields AuthResponse): the session stays as it is.
 */
import { Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Meta, SessionUser } from '../api/types.ts';
import { AppLink } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { Notice } from '../layout/notice.tsx';
import type { OfferMethod } from '../mfa/mfa-step.ts';
import { OtpEnrolment } from '../mfa/otp-enrolment.tsx';
import { TotpEnrolment } from '../mfa/totp-enrolment.tsx';
import { PasskeyEnrolment } from '../passkeys/passkey-enrolment.tsx';
import { PasskeyList, PASSKEYS_KEY, usePasskeys } from '../passkeys/passkey-list.tsx';
import { MethodRow } from './method-row.tsx';
import { MfaSwitch } from './mfa-switch.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { YourDataSection } from './your-data-section.tsx';
import { useRefreshUser } from './use-refresh-user.ts';

const ADD_TITLES: Record<OfferMethod, string> = {
  totp: 'mfa.enrol.title',
  webauthn: 'passkeys.addTitle',
  email_otp: 'mfa.enrolEmail.title',
  sms_otp: 'mfa.enrolSms.title',
};

export function SecurityPage({ meta, user }: { meta: Meta; user: SessionUser }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refresh = useRefreshUser();
  const [adding, setAdding] = useState<OfferMethod | undefined>();
  const [added, setAdded] = useState<OfferMethod | undefined>();
  const keys = usePasskeys(meta.is_webauthn_enabled);
  const enrolled = new Set(user.enrolled_mfa_methods ?? []);
  const done = async () => {
    const method = adding;
    setAdding(undefined);
    setAdded(method);
    if (method === 'webauthn') await client.invalidateQueries({ queryKey: PASSKEYS_KEY });
    await refresh();
  };
  const start = (method: OfferMethod) => {
    setAdded(undefined);
    setAdding(method);
  };
  const anyFactor = meta.is_totp_mfa_enabled || meta.is_email_otp_mfa_enabled || meta.is_sms_otp_mfa_enabled || meta.is_webauthn_enabled;

  return (
    <AuthLayout title={t('security.title')} subtitle={t('security.subtitle')} footer={<AppLink to="/">{t('security.back')}</AppLink>}>
      <Stack gap="md" data-testid="security-page">
        {added ? <Notice title={t('security.added', { method: t(`mfa.methods.${added}.title`) })} /> : null}
        {!anyFactor ? <Text fz="sm">{t('security.noFactors')}</Text> : null}
        {meta.is_multi_factor_auth_enabled && anyFactor ? <MfaSwitch meta={meta} user={user} /> : null}
        {anyFactor ? (
          <Title order={2} fz="md">
            {t('security.factors')}
          </Title>
        ) : null}
        {meta.is_webauthn_enabled ? (
          <MethodRow
            method="webauthn"
            enrolled={Boolean(keys.data?.length) || enrolled.has('webauthn')}
            description={t('mfa.methods.webauthn.setup')}
            actionLabel={t('passkeys.add')}
            onAction={() => start('webauthn')}
          >
            <FormError title={t('passkeys.loadFailed')} error={keys.error} />
            {keys.data?.length ? <PasskeyList items={keys.data} onChanged={() => void refresh()} /> : null}
          </MethodRow>
        ) : null}
        {meta.is_totp_mfa_enabled ? (
          <MethodRow
            method="totp"
            enrolled={enrolled.has('totp')}
            description={t('mfa.methods.totp.setup')}
            actionLabel={enrolled.has('totp') ? undefined : t('security.addTotp')}
            onAction={() => start('totp')}
          />
        ) : null}
        {meta.is_email_otp_mfa_enabled && user.email ? (
          <MethodRow
            method="email_otp"
            enrolled={enrolled.has('email_otp')}
            description={t('mfa.methods.email_otp.setup')}
            actionLabel={enrolled.has('email_otp') ? undefined : t('security.addEmail')}
            onAction={() => start('email_otp')}
          />
        ) : null}
        {meta.is_sms_otp_mfa_enabled && user.phone_number ? (
          <MethodRow
            method="sms_otp"
            enrolled={enrolled.has('sms_otp')}
            description={t('mfa.methods.sms_otp.setup')}
            actionLabel={enrolled.has('sms_otp') ? undefined : t('security.addSms')}
            onAction={() => start('sms_otp')}
          />
        ) : null}
        <SessionsSection />
        <YourDataSection />
      </Stack>
      <Modal opened={adding !== undefined} onClose={() => setAdding(undefined)} title={adding ? t(ADD_TITLES[adding]) : ''} centered>
        {adding === 'totp' ? <TotpEnrolment onDone={() => void done()} /> : null}
        {adding === 'webauthn' ? <PasskeyEnrolment onDone={() => void done()} /> : null}
        {adding === 'email_otp' ? <OtpEnrolment channel="email" destination={user.email} onDone={() => void done()} /> : null}
        {adding === 'sms_otp' ? <OtpEnrolment channel="sms" destination={user.phone_number} onDone={() => void done()} /> : null}
      </Modal>
    </AuthLayout>
  );
}
