/**
 * The consent operations of the authorization endpoint (server/modules/oauth): the pending request a
 * consent_required client made (who asks, for what, returning where), the person's decision, and the
 * consents already given (the "connected apps" list) with their withdrawal. All need the session cookie and
 * answer only for the session's own user.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';

export type AuthorizationRequest = Output<'authorization_request'>;

export type Consent = Output<'consents'>['consents'][number];

export async function authorizationRequest(requestId: string, signal?: AbortSignal): Promise<AuthorizationRequest> {
  return call('authorization_request', { request_id: requestId }, signal);
}

/** The URL to continue to: the authorization endpoint again (allowed) or the client's error redirect (denied). */
export async function decideAuthorizationRequest(requestId: string, approve: boolean): Promise<string> {
  return (await call('decide_authorization_request', { request_id: requestId, approve })).redirect_uri;
}

export async function consents(signal?: AbortSignal): Promise<Consent[]> {
  return (await call('consents', {}, signal)).consents;
}

export async function revokeConsent(clientId: string): Promise<void> {
  await call('revoke_consent', { client_id: clientId });
}
