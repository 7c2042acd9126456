/**
 * "Ask for a second factor when I sign in" (docs/operations.md#update_profile is_multi_factor_auth_enabled). With
 * it on and no factor yet, the next sign-in offers to set one up (docs/api-overview.md#states-and-transitions, first-time offer).
 * On an instance that enforces MFA the choice is not the person's, so the switch shows on and fixed.
 */
import { Switch } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setMfaRequired } from '../api/mfa-operations.ts';
import type { Meta, SessionUser } from '../api/types.ts';
import { FormError } from '../layout/form-error.tsx';
import { useRefreshUser } from './use-refresh-user.ts';

export function MfaSwitch({ meta, user }: { meta: Meta; user: SessionUser }) {
  const { t } = useTranslation();
  const refresh = useRefreshUser();
  const change = useMutation({ mutationFn: setMfaRequired, onSuccess: refresh });
  const on = meta.is_mfa_enforced || (change.isPending ? Boolean(change.variables) : Boolean(user.is_multi_factor_auth_enabled));
  return (
    <>
      <FormError title={t('security.switchFailed')} error={change.error} />
      <Switch
        checked={on}
        disabled={meta.is_mfa_enforced || change.isPending}
        onChange={(event) => change.mutate(event.currentTarget.checked)}
        label={t('security.require')}
        description={meta.is_mfa_enforced ? t('security.requireEnforced') : t('security.requireHint')}
      />
    </>
  );
}
