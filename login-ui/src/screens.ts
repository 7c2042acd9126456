/**
 * The login UI's screens under /app: the router (routes.tsx) is derived from this list. Adding a screen is
 * its folder plus one line here (login-ui/src/screen.ts says how).
 */
import type { LoginScreen } from './screen.ts';
import { homeScreen } from './login/screen.tsx';
import { signupScreen } from './signup/screen.tsx';
import { magicLinkScreen } from './magic-link/screen.tsx';
import { forgotPasswordScreen } from './forgot-password/screen.tsx';
import { checkEmailScreen } from './check-email/screen.tsx';
import { resetPasswordScreen } from './reset-password/screen.tsx';
import { verifyPhoneScreen } from './verify-phone/screen.tsx';
import { mfaScreen } from './mfa/screen.tsx';
import { securityScreen } from './security/screen.tsx';
import { consentScreen } from './consent/screen.tsx';
import { deviceScreen } from './device/screen.tsx';

export const LOGIN_SCREENS: readonly LoginScreen[] = [
  homeScreen,
  signupScreen,
  magicLinkScreen,
  forgotPasswordScreen,
  checkEmailScreen,
  resetPasswordScreen,
  verifyPhoneScreen,
  mfaScreen,
  securityScreen,
  consentScreen,
  deviceScreen,
];
