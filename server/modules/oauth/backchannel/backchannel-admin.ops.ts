/**
 * Admin operations of a client's back-channel logout registration (OpenID Connect Back-Channel Logout 1.0
 * §2.2; clients' client-grant-settings.entity.ts): `_client_backchannel_logout` reads it,
 * `_set_client_backchannel_logout` sets or (with an empty uri) removes it; `create_client` and `update_client`
 * take the same as `backchannel_logout_uri` and `backchannel_logout_session_required`. What an administrator
 * sets wins over what a client registered at /oauth/register (its RFC 7591 metadata).
 */
import { s } from '../../../ops/schema.ts';
import { backchannelRegistrationOf, clientSettingOperations, setBackchannelLogout } from '../../clients/index.ts';

export const backchannelAdminOperations = clientSettingOperations({
  name: 'backchannel_logout',
  readDescription: 'A registered client\'s back-channel logout URI (OpenID Connect Back-Channel Logout 1.0)',
  setDescription: 'Sets or removes a registered client\'s back-channel logout URI (OpenID Connect Back-Channel Logout 1.0)',
  setFields: {
    backchannel_logout_uri: s.string({ maxLength: 2048, description: 'https URL the logout token is POSTed to; empty removes it' }),
    backchannel_logout_session_required: s.boolean(),
  },
  answerFields: {
    backchannel_logout_uri: s.string({ description: 'empty when the client registered none' }),
    backchannel_logout_session_required: s.boolean(),
  },
  read: async (em, client) => {
    const registered = await backchannelRegistrationOf(em, client);
    return { backchannel_logout_uri: registered?.uri ?? '', backchannel_logout_session_required: registered?.sessionRequired ?? false };
  },
  write: async (ctx, client, input) => {
    const set = await setBackchannelLogout(
      ctx.em, ctx.deps.clock.now(), client.id, input.backchannel_logout_uri, input.backchannel_logout_session_required, ctx.deps.config.webhookAllowPrivateAddresses,
    );
    return { backchannel_logout_uri: set?.uri ?? '', backchannel_logout_session_required: set?.sessionRequired ?? false };
  },
});
