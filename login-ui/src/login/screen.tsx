/**
 * "/", the one place that decides where a signed-in person goes: back to the application (round trip) or
 * the signed-in page. A signed-out person gets the sign-in form.
 */
import type { LoginScreen, ScreenState } from '../screen.ts';
import { LeaveForApplication } from '../round-trip/leave-for-application.tsx';
import { initialRoundTrip, returnHost, returnUrl } from '../round-trip/round-trip.ts';
import { SignedInPage } from '../signed-in/signed-in-page.tsx';
import { LoginPage } from './login-page.tsx';

function Home({ meta, user }: ScreenState) {
  if (!user) return <LoginPage meta={meta} />;
  const url = returnUrl(initialRoundTrip);
  if (url) return <LeaveForApplication url={url} host={returnHost(initialRoundTrip)!} />;
  return <SignedInPage user={user} />;
}

export const homeScreen: LoginScreen = { path: '/', access: 'anyone', render: (state) => <Home {...state} /> };
