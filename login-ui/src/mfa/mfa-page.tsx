/**
 * /mfa: the pending second step of a sign-in, from the flags the first step answered (router history
 * state, mfa-step.ts), or from the query of a full-page redirect (an emailed sign-in link or a social
 * callback: step, methods, and the round trip's redirect_uri and state, which the server vetted at this
 * page's load and round-trip.ts reads). Opened without them (a new tab, a bookmark) there is nothing to
 * continue: the person signs in again, which the server would require anyway once the five-minute mfa
 * cookie ends.
 */
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Meta } from '../api/types.ts';
import { withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { ChallengePage } from './challenge-page.tsx';
import { isOffer, stepFromQuery, type MfaStep } from './mfa-step.ts';
import { OfferPage } from './offer-page.tsx';

export function MfaPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const location = useLocation();
  const step = (location.state as MfaStep | null) ?? stepFromQuery(location.search);
  if (!step?.flags) {
    return (
      <AuthLayout title={t('mfa.missing.title')} subtitle={t('mfa.missing.body')}>
        <Button component={Link} to={withRoundTrip('/')} replace fullWidth>
          {t('mfa.signInAgain')}
        </Button>
      </AuthLayout>
    );
  }
  if (isOffer(step)) return <OfferPage step={step} meta={meta} />;
  return <ChallengePage step={step} />;
}
