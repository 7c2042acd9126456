/**
 * A refused code or step. When the pending sign-in itself is gone (the mfa cookie expired after five
 * minutes, or the fifth wrong code ended it: UNAUTHENTICATED), only a new sign-in helps, so that is offered.
 */
import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { withRoundTrip } from '../layout/app-link.tsx';
import { FormError } from '../layout/form-error.tsx';

export function stepEnded(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UNAUTHENTICATED';
}

export function MfaError({ title, error }: { title: string; error: unknown }) {
  const { t } = useTranslation();
  const action = stepEnded(error) ? (
    <Anchor component={Link} to={withRoundTrip('/')} replace fz="sm" fw={600}>
      {t('mfa.signInAgain')}
    </Anchor>
  ) : undefined;
  return <FormError title={title} error={error} action={action} />;
}
