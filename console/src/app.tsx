/**
 * The console's routes under /dashboard (the server's SPA fallback serves index.html for every path below
 * it). Everything sits behind AdminGate: a signed-out visitor sees only the sign-in form. The sections and
 * their routes come from console/src/sections.ts; a section the instance does not show has no route.
 */
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { AdminGate } from './auth/admin-gate.tsx';
import { ConsoleShell } from './shell/console-shell.tsx';
import { NotFoundPage } from './shell/not-found-page.tsx';
import { enabledSections } from './shell/section.ts';
import { CONSOLE_SECTIONS } from './sections.ts';
import { readBranding } from '../../ui-shared/branding.ts';

const sections = enabledSections(CONSOLE_SECTIONS, readBranding());

const router = createBrowserRouter(
  [
    {
      element: (
        <AdminGate>
          <ConsoleShell sections={sections} />
        </AdminGate>
      ),
      children: [
        { index: true, element: <Navigate to="/users" replace /> },
        ...sections.flatMap((section) => section.routes),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);

export function App() {
  return <RouterProvider router={router} />;
}
