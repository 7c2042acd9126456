/**
 * Admin operations of the trusted issuers (docs/operations.md, "Trusted issuers"): `_add_trusted_issuer`,
 * `_update_trusted_issuer`, `_delete_trusted_issuer`, `_trusted_issuer`, `_trusted_issuers`, served over
 * GraphQL, REST (/v1/admin/<name>) and gRPC (AdminService) from these definitions.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import {
  AddTrustedIssuerRequest, TrustedIssuerIdRequest, TrustedIssuerSchema, TrustedIssuers, TrustedIssuersRequest,
  UpdateTrustedIssuerRequest, toPublicTrustedIssuer,
} from './trusted-issuers.schema.ts';
import {
  addTrustedIssuer, deleteTrustedIssuer, listTrustedIssuers, requireTrustedIssuer, updateTrustedIssuer,
} from './trusted-issuers.service.ts';

export const addTrustedIssuerOp = defineOperation({
  name: 'add_trusted_issuer',
  admin: true,
  kind: 'mutation',
  description: "Registers an issuer whose JWKS signs a client's private_key_jwt and jwt-bearer assertions (subject_claim defaults to sub, audience to this server's token endpoint)",
  input: AddTrustedIssuerRequest,
  output: TrustedIssuerSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicTrustedIssuer(await addTrustedIssuer(ctx.em, ctx.deps.config, ctx.deps.clock.now(), input)),
});

export const updateTrustedIssuerOp = defineOperation({
  name: 'update_trusted_issuer',
  admin: true,
  kind: 'mutation',
  description: "Changes a trusted issuer's name, JWKS URL, expected audience, active state or SPIFFE hint; omitted fields stay",
  input: UpdateTrustedIssuerRequest,
  output: TrustedIssuerSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicTrustedIssuer(await updateTrustedIssuer(ctx.em, ctx.deps.config, ctx.deps.clock.now(), input)),
});

export const deleteTrustedIssuerOp = defineOperation({
  name: 'delete_trusted_issuer',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a trusted issuer',
  input: TrustedIssuerIdRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await deleteTrustedIssuer(ctx.em, input.id);
    return { message: 'trusted issuer deleted successfully' };
  },
});

export const trustedIssuerOp = defineOperation({
  name: 'trusted_issuer',
  admin: true,
  kind: 'query',
  description: 'Reads one trusted issuer by id',
  input: TrustedIssuerIdRequest,
  output: TrustedIssuerSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicTrustedIssuer(await requireTrustedIssuer(ctx.em, input.id)),
});

export const trustedIssuersOp = defineOperation({
  name: 'trusted_issuers',
  admin: true,
  kind: 'query',
  description: 'Lists trusted issuers, newest first; filter by the owning client with client_id or service_account_id',
  input: TrustedIssuersRequest,
  output: TrustedIssuers,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await listTrustedIssuers(ctx.em, input);
    return { trusted_issuers: page.items.map(toPublicTrustedIssuer), pagination: page.pagination };
  },
});

export const trustedIssuerAdminOperations = [
  addTrustedIssuerOp, updateTrustedIssuerOp, deleteTrustedIssuerOp, trustedIssuerOp, trustedIssuersOp,
];
