import { en } from './en.ts';
import { fgaEn } from '../fga/i18n-en.ts';
import { clientsEn } from '../clients/i18n-en.ts';
import { issuersEn } from '../trusted-issuers/i18n-en.ts';
import { webhooksEn } from '../webhooks/i18n-en.ts';
import { emailTemplatesEn } from '../email-templates/i18n-en.ts';
import { auditEn } from '../audit/i18n-en.ts';
import { organizationsEn } from '../organizations/i18n-en.ts';
import { apiReferenceEn } from '../api-reference/i18n-en.ts';

// Sections with their own catalogue, one namespace each: "fga" (console/src/fga/i18n-en.ts), "clients"
// (console/src/clients/i18n-en.ts), "issuers" (console/src/trusted-issuers/i18n-en.ts), "webhooks",
// "emailTemplates", "audit", "organizations" and "apiReference" (i18n-en.ts of their folders).
export const resources = {
  en: { translation: en, fga: fgaEn, clients: clientsEn, issuers: issuersEn, webhooks: webhooksEn, emailTemplates: emailTemplatesEn, audit: auditEn, organizations: organizationsEn, apiReference: apiReferenceEn },
};
