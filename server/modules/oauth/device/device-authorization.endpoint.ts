/**
 * POST /oauth/device_authorization (RFC 8628 section 3.1): a client on a device without a handy browser asks
 * for a device_code and a user_code, and shows the user where to type it (section 3.2). Client
 * authentication as at the token endpoint; only clients with the device grant enabled (device-client.ts).
 * Exempt from the CSRF rule like the token endpoint: devices call it without Origin.
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { defineEndpoint } from '../../../ops/endpoint.ts';
import { issuerOf } from '../../tokens/index.ts';
import { SUPPORTED_SCOPES } from '../authorization-request.ts';
import { requireClient } from '../client-auth.ts';
import { scopeField } from '../oauth-body.ts';
import { requireDeviceClient } from './device-client.ts';
import { openDeviceAuthorization } from './device-authorizations.ts';

export const DEVICE_AUTHORIZATION_PATH = '/oauth/device_authorization';
/** The login UI's page where the user types the code (login-ui/src/device). */
export const DEVICE_VERIFICATION_PATH = '/app/device';
/** The scope of a request that names none, as at /authorize. */
const DEFAULT_SCOPE = ['openid', 'email', 'profile'];

export const deviceAuthorizationEndpoint = defineEndpoint({
  name: 'oauth_device_authorization',
  methods: ['POST'],
  path: DEVICE_AUTHORIZATION_PATH,
  refuseOtherMethods: true,
  csrf: { exempt: 'called by devices with client credentials (RFC 8628 section 3.1), without Origin' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const client = await requireDeviceClient(ctx.em, await requireClient(ctx.deps, request, request.body));
    const requested = scopeField(request.body);
    const scope = requested ? [...new Set(requested)] : DEFAULT_SCOPE;
    const allowed = new Set([...SUPPORTED_SCOPES, ...client.allowedScopes]);
    const outside = scope.filter((value) => !allowed.has(value));
    if (outside.length > 0) {
      throw new OAuthError(400, 'invalid_scope', `scope not available to this client: ${outside.slice(0, 5).join(' ').slice(0, 200)}`);
    }
    const opened = await openDeviceAuthorization(ctx.em, ctx.deps.clock.now(), client.clientId, scope);
    const verificationUri = `${issuerOf(ctx.deps.config)}${DEVICE_VERIFICATION_PATH}`;
    return {
      kind: 'json',
      headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
      body: {
        device_code: opened.deviceCode,
        user_code: opened.userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(opened.userCode)}`,
        expires_in: opened.expiresIn,
        interval: opened.interval,
      },
    };
  },
});
