/**
 * One login-UI screen as a value: its path under /app, who may see it, and what it renders once the
 * instance's flags and the session are known (session-gate.tsx). The router (routes.tsx) is derived from
 * the list in login-ui/src/screens.ts, and applies `access` in one place
 * (docs/architecture.md#console-sections-and-login-screens).
 *
 * To add a screen:
 *   1. Write its folder under login-ui/src/ (its page, and its text in login-ui/src/i18n/en.ts, the one
 *      catalogue the login UI has).
 *   2. End the folder with a `screen.tsx` that exports a `LoginScreen` (signup/screen.tsx is a small one).
 *   3. Add that value to `LOGIN_SCREENS` in login-ui/src/screens.ts.
 */
import type { ReactNode } from 'react';
import type { Meta, SessionUser } from './api/types.ts';

export interface ScreenState {
  meta: Meta;
  user: SessionUser | null;
}

export type LoginScreen =
  /** Shown to anyone, signed in or not. */
  | { path: string; access: 'anyone'; render: (state: ScreenState) => ReactNode }
  /** Only a signed-out person needs it (sign up, magic link, forgot password): a signed-in one is sent to "/". */
  | { path: string; access: 'signed-out'; render: (state: ScreenState) => ReactNode }
  /** Only a signed-in person has it (their Security page): a signed-out one is sent to "/" to sign in first. */
  | { path: string; access: 'signed-in'; render: (state: { meta: Meta; user: SessionUser }) => ReactNode };
