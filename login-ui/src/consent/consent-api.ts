/**
 * The consent operations of the authorization endpoint (server/modules/oauth): the pending request a
 * consent_required client made (who asks, for what, returning where), the person's decision, and the
 * consents already given (the "connected apps" list) with their withdrawal. All need the session cookie and
 * answer only for the session's own user.
 */
import { graphql } from '../../../ui-shared/graphql-client.ts';

export interface AuthorizationRequest {
  client_id: string;
  client_name: string;
  scopes: string[];
  redirect_host: string;
}

export interface Consent {
  client_id: string;
  client_name: string;
  scopes: string[];
  created_at: number;
}

const AUTHORIZATION_REQUEST = `query AuthorizationRequest($params: AuthorizationRequestQuery!) {
  authorization_request(params: $params) { client_id client_name scopes redirect_host }
}`;

const DECIDE = `mutation Decide($params: DecideAuthorizationRequest!) {
  decide_authorization_request(params: $params) { redirect_uri }
}`;

const CONSENTS = 'query Consents { consents { consents { client_id client_name scopes created_at } } }';

const REVOKE_CONSENT = `mutation RevokeConsent($params: RevokeConsentRequest!) { revoke_consent(params: $params) { message } }`;

export async function authorizationRequest(requestId: string, signal?: AbortSignal): Promise<AuthorizationRequest> {
  const answer = await graphql<{ authorization_request: AuthorizationRequest }>(AUTHORIZATION_REQUEST, { params: { request_id: requestId } }, signal);
  return answer.authorization_request;
}

/** The URL to continue to: the authorization endpoint again (allowed) or the client's error redirect (denied). */
export async function decideAuthorizationRequest(requestId: string, approve: boolean): Promise<string> {
  const answer = await graphql<{ decide_authorization_request: { redirect_uri: string } }>(DECIDE, { params: { request_id: requestId, approve } });
  return answer.decide_authorization_request.redirect_uri;
}

export async function consents(signal?: AbortSignal): Promise<Consent[]> {
  return (await graphql<{ consents: { consents: Consent[] } }>(CONSENTS, {}, signal)).consents.consents;
}

export async function revokeConsent(clientId: string): Promise<void> {
  await graphql<{ revoke_consent: { message: string } }>(REVOKE_CONSENT, { params: { client_id: clientId } });
}
