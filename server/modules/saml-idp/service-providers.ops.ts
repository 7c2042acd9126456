/**
 * SAML service provider operations (docs/operations.md, "SAML IdP": service providers are per
 * organization): open to the super-admin and to the organization's org-admins (organizations/
 * org-access.ts). A caller who may not administer the provider's organization hears permission denied
 * whether or not it exists, so ids cannot be probed.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { requireOrgAdmin } from '../organizations/index.ts';
import {
  CreateSamlServiceProviderRequest, DeleteSamlServiceProviderRequest, ImportSamlSpMetadataRequest, SamlServiceProviderRequest,
  SamlServiceProviderSchema, SamlServiceProviders, SamlServiceProvidersRequest, SamlSpMetadataPrefill, UpdateSamlServiceProviderRequest,
  toPublicServiceProvider,
} from './service-provider.schema.ts';
import { createServiceProvider, listServiceProviders, updateServiceProvider } from './service-providers.service.ts';
import { SamlServiceProvider, type SamlServiceProviderRow } from './saml-idp.entities.ts';
import { readSpMetadata } from './sp-metadata-import.ts';

async function administeredProvider(ctx: HandlerContext, id: string): Promise<SamlServiceProviderRow> {
  const row = await ctx.em.findOne(SamlServiceProvider, { id });
  if (!row) {
    if (ctx.caller.kind === 'super_admin') throw AppError.notFound('SAML service provider not found');
    throw AppError.forbidden();
  }
  await requireOrgAdmin(ctx, row.orgId);
  return row;
}

export const createSamlServiceProviderOp = defineOperation({
  name: 'create_saml_service_provider',
  admin: true,
  kind: 'mutation',
  description: "Registers a SAML service provider of an organization: entity id (unique in the organization), ACS endpoints, optional signing certificate (its AuthnRequests must then be signed), attribute mapping, NameID format (super-admin or its org-admins)",
  input: CreateSamlServiceProviderRequest,
  output: SamlServiceProviderSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    return toPublicServiceProvider(await createServiceProvider(ctx.em, ctx.deps, input));
  },
});

export const updateSamlServiceProviderOp = defineOperation({
  name: 'update_saml_service_provider',
  admin: true,
  kind: 'mutation',
  description: 'Changes a SAML service provider; omitted fields stay (super-admin or its org-admins)',
  input: UpdateSamlServiceProviderRequest,
  output: SamlServiceProviderSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const row = await administeredProvider(ctx, input.id);
    return toPublicServiceProvider(await updateServiceProvider(ctx.em, ctx.deps, row, input));
  },
});

export const deleteSamlServiceProviderOp = defineOperation({
  name: 'delete_saml_service_provider',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a SAML service provider: its sign-ins stop at once (super-admin or its org-admins)',
  input: DeleteSamlServiceProviderRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const row = await administeredProvider(ctx, input.id);
    await ctx.em.nativeDelete(SamlServiceProvider, { id: row.id });
    return { message: 'SAML service provider deleted successfully' };
  },
});

export const samlServiceProviderOp = defineOperation({
  name: 'saml_service_provider',
  admin: true,
  kind: 'query',
  description: 'Reads one SAML service provider (super-admin or its org-admins)',
  input: SamlServiceProviderRequest,
  output: SamlServiceProviderSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => toPublicServiceProvider(await administeredProvider(ctx, input.id)),
});

export const samlServiceProvidersOp = defineOperation({
  name: 'saml_service_providers',
  admin: true,
  kind: 'query',
  description: "Lists an organization's SAML service providers, newest first (super-admin or its org-admins)",
  input: SamlServiceProvidersRequest,
  output: SamlServiceProviders,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    const page = await listServiceProviders(ctx.em, input.org_id, input.pagination);
    return { service_providers: page.items.map(toPublicServiceProvider), pagination: page.pagination };
  },
});

export const importSamlSpMetadataOp = defineOperation({
  name: 'import_saml_sp_metadata',
  admin: true,
  kind: 'query',
  description: 'Reads pasted SP metadata XML into prefill fields for create_saml_service_provider; creates no record and fetches nothing (super-admin or its org-admins)',
  input: ImportSamlSpMetadataRequest,
  output: SamlSpMetadataPrefill,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    return readSpMetadata(input.metadata_xml);
  },
});

export const serviceProviderOperations = [
  createSamlServiceProviderOp, updateSamlServiceProviderOp, deleteSamlServiceProviderOp, samlServiceProviderOp, samlServiceProvidersOp, importSamlSpMetadataOp,
];
