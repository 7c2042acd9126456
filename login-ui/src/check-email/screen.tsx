/** /check-email: the link from an email, followed whether or not the person is signed in. */
import type { LoginScreen } from '../screen.ts';
import { CheckEmailPage } from './check-email-page.tsx';

export const checkEmailScreen: LoginScreen = { path: '/check-email', access: 'anyone', render: () => <CheckEmailPage /> };
