/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 section 3.4): the device polls with its
 * device_code until the user decided (device/device-authorizations.ts: authorization_pending, slow_down,
 * access_denied, expired_token of section 3.5). An approved request is redeemed once for tokens minted like
 * an authorization code's: the same audience rules (aud and azp = the registered client), an ID token when
 * the scope has openid (OpenID Connect Core section 3.1.3.3), a refresh token with offline_access.
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { requireDeviceClient } from '../device/device-client.ts';
import { pollDeviceAuthorization } from '../device/device-authorizations.ts';
import { stringField } from '../oauth-body.ts';
import { tokenTypeFor } from '../../tokens/index.ts';
import type { Grant } from './grant.ts';

export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

export const deviceCodeGrant: Grant = {
  grantType: DEVICE_CODE_GRANT_TYPE,
  async handle({ ctx, body, client, dpopJkt }) {
    const registered = await requireDeviceClient(ctx.em, client);
    const deviceCode = stringField(body, 'device_code');
    if (!deviceCode) throw OAuthError.invalidRequest('device_code is required');
    const { tokens, scope } = await pollDeviceAuthorization(ctx, ctx.em, {
      deviceCode, clientId: registered.clientId, registered: true, ...(dpopJkt ? { dpopJkt } : {}), publicClient: client.method === 'none',
    });
    return {
      access_token: tokens.access_token,
      token_type: tokenTypeFor(dpopJkt),
      expires_in: tokens.expires_in,
      ...(scope.includes('openid') ? { id_token: tokens.id_token } : {}),
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      scope: scope.join(' '),
    };
  },
};
