/** /reset-password: the new password, from the emailed link, whether or not the person is signed in. */
import type { LoginScreen } from '../screen.ts';
import { ResetPasswordPage } from './reset-password-page.tsx';

export const resetPasswordScreen: LoginScreen = { path: '/reset-password', access: 'anyone', render: ({ meta }) => <ResetPasswordPage meta={meta} /> };
