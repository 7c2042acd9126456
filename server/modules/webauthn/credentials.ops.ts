/**
 * A signed-in user's own passkeys (docs/operations.md#webauthn_credentials, webauthn_delete_credential).
 * Only the caller's: the list is filtered by the caller's id, and deleting another user's passkey answers
 * the not-found of an unknown id (passkeys.ts deletePasskey). Neither the public key nor the credential id is
 * shown: the list is for naming and removing devices.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse, NoInput, type Static } from '../../ops/schema.ts';
import { unixSeconds } from '../users/index.ts';
import { callerUser } from '../accounts/index.ts';
import { deletePasskey, passkeysOf } from './passkeys.ts';
import { WebauthnCredentialsResponse, WebauthnDeleteCredentialRequest } from './webauthn.schema.ts';
import { audit } from '../audit/index.ts';

export const webauthnCredentialsOp = defineOperation({
  name: 'webauthn_credentials',
  admin: false,
  kind: 'query',
  description: "The caller's own passkeys",
  input: NoInput,
  output: WebauthnCredentialsResponse,
  auth: 'user',
  handler: async (_input, ctx): Promise<Static<typeof WebauthnCredentialsResponse>> => {
    const user = await callerUser(ctx);
    const passkeys = await passkeysOf(ctx.em, user.id);
    return {
      credentials: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        transports: p.transports,
        created_at: unixSeconds(p.createdAt),
        updated_at: unixSeconds(p.updatedAt),
        last_used_at: unixSeconds(p.lastUsedAt),
      })),
    };
  },
});

export const webauthnDeleteCredentialOp = defineOperation({
  name: 'webauthn_delete_credential',
  admin: false,
  kind: 'mutation',
  description: "Deletes one of the caller's own passkeys by id",
  input: WebauthnDeleteCredentialRequest,
  output: MessageResponse,
  auth: 'user',
  graphql: { flatArgs: true },
  handler: async (input, ctx): Promise<Static<typeof MessageResponse>> => {
    const user = await callerUser(ctx);
    await deletePasskey(ctx.em, ctx.deps.clock, user.id, input.id);
    await audit(ctx, { action: 'user.passkey_deleted', actor: { type: 'user', id: user.id, email: user.email }, resourceType: 'passkey', resourceId: input.id });
    return { message: 'Passkey deleted' };
  },
});
