/** /forgot-password: asking for a password reset, for a signed-out person only. */
import type { LoginScreen } from '../screen.ts';
import { ForgotPasswordPage } from './forgot-password-page.tsx';

export const forgotPasswordScreen: LoginScreen = {
  path: '/forgot-password',
  access: 'signed-out',
  render: ({ meta }) => <ForgotPasswordPage meta={meta} />,
};
