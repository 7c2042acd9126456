/** /verify-phone: the code sent by SMS, whether or not the person is signed in. */
import type { LoginScreen } from '../screen.ts';
import { VerifyPhonePage } from './verify-phone-page.tsx';

export const verifyPhoneScreen: LoginScreen = { path: '/verify-phone', access: 'anyone', render: () => <VerifyPhonePage /> };
