/** /magic-link: asking for a sign-in link by email, for a signed-out person only. */
import type { LoginScreen } from '../screen.ts';
import { MagicLinkPage } from './magic-link-page.tsx';

export const magicLinkScreen: LoginScreen = { path: '/magic-link', access: 'signed-out', render: ({ meta }) => <MagicLinkPage meta={meta} /> };
