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

export const createClientOp = defineOperation({
  name: 'create_client',
  admin: true,
  kind: 'mutation',
  description: 'Registers an OAuth client; the answer holds its secret, shown this once. allowed_scopes omitted or empty: openid email profile',
  input: CreateClientRequest,
  output: ClientWithSecret,
  auth: 'admin',
  handler: async (input, ctx) => {
    const { client, secret } = await createClient(ctx.em, ctx.deps.clock.now(), input);
    return { client: toPublicClient(client), client_secret: secret };
  },
});

export const updateClientOp = defineOperation({
  name: 'update_client',
  admin: true,
  kind: 'mutation',
  description: "Changes a client's name, description, allowed scopes, redirect URIs, post-logout redirect URIs, consent or active state; omitted fields stay",
  input: UpdateClientRequest,
  output: ClientSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicClient(await updateClient(ctx.em, ctx.deps.clock.now(), input)),
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
      client: toPublicClient(client),
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
  handler: async (input, ctx) => toPublicClient(await getClient(ctx.em, input)),
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
    return { clients: page.items.map(toPublicClient), pagination: page.pagination };
  },
});

export const clientAdminOperations = [
  createClientOp, updateClientOp, deleteClientOp, rotateClientSecretOp, clientOp, clientsOp,
];
