/**
 * Admin operations of a client's back-channel logout registration (OpenID Connect Back-Channel Logout 1.0
 * §2.2; backchannel.entity.ts): `_client_backchannel_logout` reads it, `_set_client_backchannel_logout` sets
 * or (with an empty uri) removes it. What an administrator sets here wins over what a client registered at
 * /oauth/register (its RFC 7591 metadata).
 */
import { defineOperation } from '../../../ops/define.ts';
import { s } from '../../../ops/schema.ts';
import { AppError } from '../../../kernel/errors.ts';
import { backchannelUriProblem, getClient } from '../../clients/index.ts';
import { BackchannelLogoutClient } from './backchannel.entity.ts';
import { backchannelRegistrationOf } from './session-clients.ts';

const ClientBackchannelLogoutQuery = s.object('ClientBackchannelLogoutQuery', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
});

const SetClientBackchannelLogoutRequest = s.object('SetClientBackchannelLogoutRequest', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
  backchannel_logout_uri: s.string({ maxLength: 2048, description: 'https URL the logout token is POSTed to; empty removes it' }),
  backchannel_logout_session_required: s.boolean(),
});

const ClientBackchannelLogout = s.object('ClientBackchannelLogout', {
  client_id: s.string(),
  backchannel_logout_uri: s.string({ description: 'empty when the client registered none' }),
  backchannel_logout_session_required: s.boolean(),
});

export const clientBackchannelLogoutOp = defineOperation({
  name: 'client_backchannel_logout',
  admin: true,
  kind: 'query',
  description: 'A registered client\'s back-channel logout URI (OpenID Connect Back-Channel Logout 1.0)',
  input: ClientBackchannelLogoutQuery,
  output: ClientBackchannelLogout,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    const registered = await backchannelRegistrationOf(ctx.em, client);
    return { client_id: client.clientId, backchannel_logout_uri: registered?.uri ?? '', backchannel_logout_session_required: registered?.sessionRequired ?? false };
  },
});

export const setClientBackchannelLogoutOp = defineOperation({
  name: 'set_client_backchannel_logout',
  admin: true,
  kind: 'mutation',
  description: 'Sets or removes a registered client\'s back-channel logout URI (OpenID Connect Back-Channel Logout 1.0)',
  input: SetClientBackchannelLogoutRequest,
  output: ClientBackchannelLogout,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    await ctx.em.nativeDelete(BackchannelLogoutClient, { id: client.id });
    if (!input.backchannel_logout_uri.trim()) return { client_id: client.clientId, backchannel_logout_uri: '', backchannel_logout_session_required: false };
    const uri = input.backchannel_logout_uri.trim();
    const problem = backchannelUriProblem(uri, ctx.deps.config.webhookAllowPrivateAddresses);
    if (problem) throw AppError.invalid(problem);
    ctx.em.persist(ctx.em.create(BackchannelLogoutClient, {
      id: client.id, uri, sessionRequired: input.backchannel_logout_session_required, updatedAt: ctx.deps.clock.now(),
    }));
    await ctx.em.flush();
    return { client_id: client.clientId, backchannel_logout_uri: uri, backchannel_logout_session_required: input.backchannel_logout_session_required };
  },
});

export const backchannelAdminOperations = [clientBackchannelLogoutOp, setClientBackchannelLogoutOp];
