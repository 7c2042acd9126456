/**
 * The two admin operations of one per-client setting (client-settings.ts), in the one shape they all share:
 * `_client_<name>` reads it for a client named by client_id, `_set_client_<name>` writes it and answers what is
 * now stored. The device grant, token exchange and back-channel logout each declare theirs with this, giving
 * only their fields and how they are read and written; the client registry's create_client and update_client
 * take the same settings as fields. Served over GraphQL, REST (/v1/admin/<name>) and gRPC like every operation.
 */
import type { EntityManager } from '@mikro-orm/core';
import { defineOperation, pascalCase, type HandlerContext } from '../../ops/define.ts';
import { s, type Static, type TObject, type TProperties } from '../../ops/schema.ts';
import type { ClientRow } from './client.entity.ts';
import { getClient } from './clients.service.ts';

const clientIdInput = s.string({ minLength: 1, maxLength: 64 });

export interface ClientSettingSpec<Set extends TProperties, Answer extends TProperties> {
  /** snake_case: the operations are `client_<name>` and `set_client_<name>`. */
  name: string;
  readDescription: string;
  setDescription: string;
  /** The fields `_set_client_<name>` takes besides client_id. */
  setFields: Set;
  /** The fields both operations answer besides client_id. */
  answerFields: Answer;
  read(em: EntityManager, client: ClientRow): Promise<Static<TObject<Answer>>>;
  write(ctx: HandlerContext, client: ClientRow, input: Static<TObject<Set>>): Promise<Static<TObject<Answer>>>;
}

export function clientSettingOperations<Set extends TProperties, Answer extends TProperties>(spec: ClientSettingSpec<Set, Answer>) {
  const type = `Client${pascalCase(spec.name)}`;
  const query = s.object(`${type}Query`, { client_id: clientIdInput });
  // Typed loosely here and strictly at the spec: TypeBox cannot compute the static type of a spread of generic fields.
  const setRequest = s.object(`Set${type}Request`, { client_id: clientIdInput, ...spec.setFields } as TProperties) as TObject;
  const answer = s.object(type, { client_id: s.string(), ...spec.answerFields } as TProperties) as TObject;
  const answerOf = (client: ClientRow, fields: object): Static<TObject> => ({ client_id: client.clientId, ...fields });
  return [
    defineOperation({
      name: `client_${spec.name}`,
      admin: true,
      kind: 'query',
      description: spec.readDescription,
      input: query,
      output: answer,
      auth: 'admin',
      handler: async (input, ctx) => {
        const client = await getClient(ctx.em, { client_id: input.client_id });
        return answerOf(client, await spec.read(ctx.em, client));
      },
    }),
    defineOperation({
      name: `set_client_${spec.name}`,
      admin: true,
      kind: 'mutation',
      description: spec.setDescription,
      input: setRequest,
      output: answer,
      auth: 'admin',
      handler: async (input, ctx) => {
        const client = await getClient(ctx.em, { client_id: String(input.client_id) });
        return answerOf(client, await spec.write(ctx, client, input as Static<TObject<Set>>));
      },
    }),
  ];
}
