/**
 * The router of the screens under /app, derived from login-ui/src/screens.ts. Every screen waits for the
 * instance's flags and the session (session-gate.tsx); its `access` then decides who may see it: a
 * signed-in person on a signed-out-only screen, or the reverse, is sent to "/", which decides where they go.
 */
import type { ReactNode } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { withRoundTrip } from './layout/app-link.tsx';
import type { LoginScreen, ScreenState } from './screen.ts';
import { LOGIN_SCREENS } from './screens.ts';
import { SessionGate } from './session-gate.tsx';

function guarded(screen: LoginScreen): (state: ScreenState) => ReactNode {
  switch (screen.access) {
    case 'anyone':
      return screen.render;
    case 'signed-out':
      return (state) => (state.user ? <Navigate to={withRoundTrip('/')} replace /> : screen.render(state));
    case 'signed-in':
      return (state) => (state.user ? screen.render({ meta: state.meta, user: state.user }) : <Navigate to={withRoundTrip('/')} replace />);
  }
}

export const router = createBrowserRouter(
  [
    ...LOGIN_SCREENS.map((screen) => ({ path: screen.path, element: <SessionGate>{guarded(screen)}</SessionGate> })),
    { path: '*', element: <Navigate to={withRoundTrip('/')} replace /> },
  ],
  { basename: '/app' },
);
