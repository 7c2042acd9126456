/**
 * SAML IdP key operations (docs/operations.md, "SAML IdP", docs/api-overview.md#states-and-transitions, "SAML IdP key"): open to the
 * super-admin and to the organization's org-admins (organizations/org-access.ts). The list makes the first
 * key when the organization has none, as the metadata does, so what it shows is what SPs are given.
 */
import { defineOperation } from '../../ops/define.ts';
import { requireOrgAdmin } from '../organizations/index.ts';
import { RetireSamlIdpKeyRequest, RotateSamlIdpCertRequest, SamlIdpKeys, SamlIdpKeysRequest, toPublicKeys } from './idp-keys.schema.ts';
import { currentKey, listKeys, retireKey, rotateKey } from './idp-keys.service.ts';

export const samlIdpKeysOp = defineOperation({
  name: 'saml_idp_keys',
  admin: true,
  kind: 'query',
  description: "Lists an organization's SAML IdP signing keys with their state (current, published, retired), making the first key on first use, and the IdP's metadata and SSO addresses (super-admin or its org-admins)",
  input: SamlIdpKeysRequest,
  output: SamlIdpKeys,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    await currentKey(ctx.em, ctx.deps, org.id, org.name);
    return toPublicKeys(ctx.deps.config, org.name, await listKeys(ctx.em, org.id));
  },
});

export const rotateSamlIdpCertOp = defineOperation({
  name: 'rotate_saml_idp_cert',
  admin: true,
  kind: 'mutation',
  description: 'Makes a new current SAML IdP signing key; the old one stays in the metadata, no longer signing, until it is retired (super-admin or its org-admins)',
  input: RotateSamlIdpCertRequest,
  output: SamlIdpKeys,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    await rotateKey(ctx.em, ctx.deps, org.id, org.name);
    return toPublicKeys(ctx.deps.config, org.name, await listKeys(ctx.em, org.id));
  },
});

export const retireSamlIdpKeyOp = defineOperation({
  name: 'retire_saml_idp_key',
  admin: true,
  kind: 'mutation',
  description: 'Retires a published, no longer signing SAML IdP key: it leaves the metadata. Refused for the signing key (super-admin or its org-admins)',
  input: RetireSamlIdpKeyRequest,
  output: SamlIdpKeys,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    await retireKey(ctx.em, ctx.deps, org.id, input.key_id);
    return toPublicKeys(ctx.deps.config, org.name, await listKeys(ctx.em, org.id));
  },
});

export const idpKeyOperations = [samlIdpKeysOp, rotateSamlIdpCertOp, retireSamlIdpKeyOp];
