/** /signup: creating an account, for a signed-out person only. */
import type { LoginScreen } from '../screen.ts';
import { SignupPage } from './signup-page.tsx';

export const signupScreen: LoginScreen = { path: '/signup', access: 'signed-out', render: ({ meta }) => <SignupPage meta={meta} /> };
