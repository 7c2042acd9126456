/**
 * Adding a passkey (docs/operations.md#webauthn_registration_options then webauthn_registration_verify): an
 * optional name to tell passkeys apart later, then the browser's own dialog. Signed in it adds the passkey
 * (no token, docs/api-overview.md#resources-and-fields AuthResponse); in a first-time offer (mfa cookie) it
 * completes the sign-in (docs/api-overview.md#states-and-transitions).
 */
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthAnswer, Identifier } from '../api/types.ts';
import { MfaError } from '../mfa/mfa-error.tsx';
import { whoFields } from '../mfa/mfa-step.ts';
import { registerPasskey, wasDismissed } from './ceremonies.ts';

export function PasskeyEnrolment({ who, onDone }: { who?: Identifier; onDone: (answer: AuthAnswer) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => registerPasskey({ name: name.trim() || undefined, who: whoFields(who) }),
    onSuccess: onDone,
  });
  const error = create.error && !wasDismissed(create.error) ? create.error : null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
      aria-label={t('passkeys.create')}
    >
      <Stack gap="md">
        <Text fz="sm">{t('passkeys.intro')}</Text>
        <MfaError title={t('passkeys.createFailed')} error={error} />
        <TextInput label={t('passkeys.name')} description={t('passkeys.nameHint')} maxLength={64} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <Button type="submit" fullWidth leftSection={<IconFingerprint size={18} />} loading={create.isPending}>
          {t('passkeys.create')}
        </Button>
      </Stack>
    </form>
  );
}
