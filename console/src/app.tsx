/**
 * The console's routes under /dashboard (the server's SPA fallback serves index.html for every path below
 * it). Everything sits behind AdminGate: a signed-out visitor sees only the sign-in form.
 */
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { AdminGate } from './auth/admin-gate.tsx';
import { ConsoleShell } from './shell/console-shell.tsx';
import { UsersPage } from './users/users-page.tsx';
import { UserPage } from './users/user-page.tsx';
import { VerificationRequestsPage } from './verification/verification-requests-page.tsx';
import { SettingsPage } from './settings/settings-page.tsx';
import { NotFoundPage } from './shell/not-found-page.tsx';
import { FgaPage, PlaygroundPage } from './fga/index.tsx';
import { ClientsPage } from './clients/clients-page.tsx';
import { ClientPage } from './clients/client-page.tsx';
import { WebhooksPage } from './webhooks/webhooks-page.tsx';
import { WebhookPage } from './webhooks/webhook-page.tsx';
import { EmailTemplatesPage } from './email-templates/email-templates-page.tsx';
import { EmailTemplatePage } from './email-templates/email-template-page.tsx';
import { AuditLogPage } from './audit/audit-log-page.tsx';
import { OrganizationsPage } from './organizations/organizations-page.tsx';
import { OrganizationPage } from './organizations/organization-page.tsx';
import { ApiReferenceRoute } from './api-reference/index.tsx';
import { readBranding } from '../../ui-shared/branding.ts';

const router = createBrowserRouter(
  [
    {
      element: (
        <AdminGate>
          <ConsoleShell />
        </AdminGate>
      ),
      children: [
        { index: true, element: <Navigate to="/users" replace /> },
        { path: 'users', element: <UsersPage /> },
        { path: 'users/:userId', element: <UserPage /> },
        { path: 'verification-requests', element: <VerificationRequestsPage /> },
        { path: 'settings', element: <SettingsPage /> },
        { path: 'clients', element: <ClientsPage /> },
        { path: 'clients/:clientId', element: <ClientPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'webhooks/:webhookId', element: <WebhookPage /> },
        { path: 'email-templates', element: <EmailTemplatesPage /> },
        { path: 'email-templates/:event', element: <EmailTemplatePage /> },
        { path: 'audit-log', element: <AuditLogPage /> },
        { path: 'organizations', element: <OrganizationsPage /> },
        { path: 'organizations/:organizationId', element: <OrganizationPage /> },
        { path: 'fga/*', element: <FgaPage /> },
        { path: 'api-reference', element: <ApiReferenceRoute /> },
        ...(readBranding().playground ? [{ path: 'playground', element: <PlaygroundPage /> }] : []),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);

export function App() {
  return <RouterProvider router={router} />;
}
