/** /security: a signed-in person's second factors and passkeys. */
import type { LoginScreen } from '../screen.ts';
import { SecurityPage } from './security-page.tsx';

export const securityScreen: LoginScreen = { path: '/security', access: 'signed-in', render: ({ meta, user }) => <SecurityPage meta={meta} user={user} /> };
