/**
 * Admin operations of the client registry (docs/operations.md, "Client registry"): `_create_client`,
 * `_update_client`, `_delete_client`, `_rotate_client_secret`, `_client`, `_clients`, served over GraphQL,
 * REST (/v1/admin/<name>) and gRPC (AdminService) from these definitions. Only create and rotate answer a
 * secret; get and list never return a secret or its digest (docs/api-overview.md#resources-and-fields, "Client").
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import {
  ClientIdRequest, ClientSchema, ClientWithSecret, Clients, ClientsRequest, CreateClientRequest, GetClientRequest,
  UpdateClientRequest, toPublicClient,
} from './clients.schema.ts';
import { unixSeconds } from '../users/index.ts';
import { createClient, deleteClient, getClient, listClients, rotateClientSecret, updateClient } from './clients.service.ts';
import { applySettingsInput, deleteSettingsOf, settingsOf } from './client-settings.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { ClientRow } from './client.entity.ts';

/** The answers of `rows`, each with its per-client settings (client-settings.ts), read in three queries. */
async function answersOf(em: EntityManager, rows: readonly ClientRow[]) {
  const settings = await settingsOf(em, rows);
  return rows.map((row) => toPublicClient(row, settings.get(row.id)));
}

async function answerOf(em: EntityManager, row: ClientRow) {
  return (await answersOf(em, [row]))[0]!;
}

export const createClientOp = defineOperation({
  name: 'create_client',
  admin: true,
  kind: 'mutation',
  description: 'Registers an OAuth client; the answer holds its secret, shown this once. allowed_scopes omitted or empty: openid email profile',
  input: CreateClientRequest,
  output: ClientWithSecret,
  auth: 'admin',
  handler: async (input, ctx) => {
    const now = ctx.deps.clock.now();
    const { client, secret } = await createClient(ctx.em, now, input);
    await applySettingsInput(ctx.em, now, client, input, ctx.deps.config.webhookAllowPrivateAddresses);
    return { client: await answerOf(ctx.em, client), client_secret: secret };
  },
});

export const updateClientOp = defineOperation({
  name: 'update_client',
  admin: true,
  kind: 'mutation',
  description: "Changes a client's name, description, allowed scopes, redirect URIs, post-logout redirect URIs, consent or active state, device grant, token exchange or back-channel logout; omitted fields stay",
  input: UpdateClientRequest,
  output: ClientSchema,
  auth: 'admin',
  handler: async (input, ctx) => {
    const now = ctx.deps.clock.now();
    const client = await updateClient(ctx.em, now, input);
    await applySettingsInput(ctx.em, now, client, input, ctx.deps.config.webhookAllowPrivateAddresses);
    return answerOf(ctx.em, client);
  },
});

export const deleteClientOp = defineOperation({
  name: 'delete_client',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a client',
  input: ClientIdRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await deleteClient(ctx.em, input.id);
    await deleteSettingsOf(ctx.em, input.id);
    return { message: 'client deleted successfully' };
  },
});

export const rotateClientSecretOp = defineOperation({
  name: 'rotate_client_secret',
  admin: true,
  kind: 'mutation',
  description: 'Issues a new client secret, shown this once; the old one keeps working for --client-secret-rotation-grace seconds',
  input: ClientIdRequest,
  output: ClientWithSecret,
  auth: 'admin',
  handler: async (input, ctx) => {
    const grace = ctx.deps.config.clientSecretRotationGrace;
    const { client, secret } = await rotateClientSecret(ctx.em, ctx.deps.clock.now(), input.id, grace);
    const previousSecretExpiresAt = unixSeconds(client.previousSecretExpiresAt);
    return {
      client: await answerOf(ctx.em, client),
      client_secret: secret,
      ...(previousSecretExpiresAt !== undefined ? { previous_secret_expires_at: previousSecretExpiresAt } : {}),
    };
  },
});

export const clientOp = defineOperation({
  name: 'client',
  admin: true,
  kind: 'query',
  description: 'Reads one client by id or by client_id (never its secret)',
  input: GetClientRequest,
  output: ClientSchema,
  auth: 'admin',
  handler: async (input, ctx) => answerOf(ctx.em, await getClient(ctx.em, input)),
});

export const clientsOp = defineOperation({
  name: 'clients',
  admin: true,
  kind: 'query',
  description: 'Lists clients, newest first (never their secrets)',
  input: ClientsRequest,
  output: Clients,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await listClients(ctx.em, input.pagination);
    return { clients: await answersOf(ctx.em, page.items), pagination: page.pagination };
  },
});

export const clientAdminOperations = [
  createClientOp, updateClientOp, deleteClientOp, rotateClientSecretOp, clientOp, clientsOp,
];
