/**
 * The console's sections, in navbar order: the router (app.tsx), the navbar (shell/console-shell.tsx) and the
 * i18n resources (i18n/index.ts) are derived from this list. Adding a section is its folder plus one line
 * here (console/src/shell/section.ts says how). The API reference sits next to the playground, which is
 * there only with --enable-playground.
 */
import type { ConsoleSection } from './shell/section.ts';
import { usersSection } from './users/section.tsx';
import { organizationsSection } from './organizations/section.tsx';
import { verificationSection } from './verification/section.tsx';
import { clientsSection } from './clients/section.tsx';
import { fgaSection, playgroundSection } from './fga/section.tsx';
import { webhooksSection } from './webhooks/section.tsx';
import { emailTemplatesSection } from './email-templates/section.tsx';
import { auditSection } from './audit/section.tsx';
import { settingsSection } from './settings/section.tsx';
import { apiReferenceSection } from './api-reference/section.tsx';

export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  usersSection,
  organizationsSection,
  verificationSection,
  clientsSection,
  fgaSection,
  webhooksSection,
  emailTemplatesSection,
  auditSection,
  settingsSection,
  apiReferenceSection,
  playgroundSection,
];
