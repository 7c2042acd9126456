/** /consent: granting an application the scopes it asks for; the page handles a signed-out visitor itself. */
import type { LoginScreen } from '../screen.ts';
import { ConsentPage } from './consent-page.tsx';

export const consentScreen: LoginScreen = { path: '/consent', access: 'anyone', render: ({ user }) => <ConsentPage user={user} /> };
