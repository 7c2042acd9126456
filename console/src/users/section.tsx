/** The users section (/dashboard/users): the list and one user's page. Its text is in the default namespace. */
import { IconUsers } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { UsersPage } from './users-page.tsx';
import { UserPage } from './user-page.tsx';

export const usersSection: ConsoleSection = {
  path: 'users',
  routes: [
    { path: 'users', element: <UsersPage /> },
    { path: 'users/:userId', element: <UserPage /> },
  ],
  nav: { labelKey: 'nav.users', icon: IconUsers },
};
