/** /mfa: the second step of signing in, so for a person not yet signed in. */
import type { LoginScreen } from '../screen.ts';
import { MfaPage } from './mfa-page.tsx';

export const mfaScreen: LoginScreen = { path: '/mfa', access: 'signed-out', render: ({ meta }) => <MfaPage meta={meta} /> };
