/** /device: approving a device's sign-in with the code it shows (RFC 8628); the page handles a signed-out visitor itself. */
import type { LoginScreen } from '../screen.ts';
import { DevicePage } from './device-page.tsx';

export const deviceScreen: LoginScreen = { path: '/device', access: 'anyone', render: ({ user }) => <DevicePage user={user} /> };
