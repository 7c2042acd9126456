/**
 * The screens under /app. "/" is the one place that decides where a signed-in person goes: back to the
 * application (round trip) or the signed-in page. Screens for signed-out people send a signed-in one there.
 */
import type { ReactNode } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import type { Meta, SessionUser } from './api/types.ts';
import { CheckEmailPage } from './check-email/check-email-page.tsx';
import { ConsentPage } from './consent/consent-page.tsx';
import { ForgotPasswordPage } from './forgot-password/forgot-password-page.tsx';
import { withRoundTrip } from './layout/app-link.tsx';
import { LoginPage } from './login/login-page.tsx';
import { MagicLinkPage } from './magic-link/magic-link-page.tsx';
import { MfaPage } from './mfa/mfa-page.tsx';
import { ResetPasswordPage } from './reset-password/reset-password-page.tsx';
import { LeaveForApplication } from './round-trip/leave-for-application.tsx';
import { initialRoundTrip, returnHost, returnUrl } from './round-trip/round-trip.ts';
import { SecurityPage } from './security/security-page.tsx';
import { SessionGate } from './session-gate.tsx';
import { SignedInPage } from './signed-in/signed-in-page.tsx';
import { SignupPage } from './signup/signup-page.tsx';
import { VerifyPhonePage } from './verify-phone/verify-phone-page.tsx';

type Screen = (state: { meta: Meta; user: SessionUser | null }) => ReactNode;

function Home({ meta, user }: { meta: Meta; user: SessionUser | null }) {
  if (!user) return <LoginPage meta={meta} />;
  const url = returnUrl(initialRoundTrip);
  if (url) return <LeaveForApplication url={url} host={returnHost(initialRoundTrip)!} />;
  return <SignedInPage user={user} />;
}

/** A screen only a signed-out person needs (sign up, magic link, forgot password). */
function signedOutOnly(screen: Screen): Screen {
  return (state) => (state.user ? <Navigate to={withRoundTrip('/')} replace /> : screen(state));
}

/** A screen only a signed-in person has (their Security page); a signed-out one signs in first. */
function signedInOnly(screen: (state: { meta: Meta; user: SessionUser }) => ReactNode): Screen {
  return (state) => (state.user ? screen({ meta: state.meta, user: state.user }) : <Navigate to={withRoundTrip('/')} replace />);
}

function gated(screen: Screen) {
  return <SessionGate>{screen}</SessionGate>;
}

export const router = createBrowserRouter(
  [
    { path: '/', element: gated((state) => <Home {...state} />) },
    { path: '/signup', element: gated(signedOutOnly(({ meta }) => <SignupPage meta={meta} />)) },
    { path: '/magic-link', element: gated(signedOutOnly(({ meta }) => <MagicLinkPage meta={meta} />)) },
    { path: '/forgot-password', element: gated(signedOutOnly(({ meta }) => <ForgotPasswordPage meta={meta} />)) },
    { path: '/check-email', element: gated(() => <CheckEmailPage />) },
    { path: '/reset-password', element: gated(({ meta }) => <ResetPasswordPage meta={meta} />) },
    { path: '/verify-phone', element: gated(() => <VerifyPhonePage />) },
    { path: '/mfa', element: gated(signedOutOnly(({ meta }) => <MfaPage meta={meta} />)) },
    { path: '/security', element: gated(signedInOnly(({ meta, user }) => <SecurityPage meta={meta} user={user} />)) },
    { path: '/consent', element: gated(({ user }) => <ConsentPage user={user} />) },
    { path: '*', element: <Navigate to={withRoundTrip('/')} replace /> },
  ],
  { basename: '/app' },
);
