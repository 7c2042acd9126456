/**
 * What the IdP's browser endpoints (sso.endpoint.ts, slo.endpoint.ts) read of a request: the organization of
 * the path and the SAML message as received by its binding (the browser's session: sessions' browserSession).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { EndpointRequest } from '../../ops/endpoint.ts';
import { findOrganization, type OrganizationRow } from '../organizations/index.ts';
import type { ReceivedRequest } from './authn-request.ts';

/** Bindings 3.4.3 asks SPs for at most 80 bytes; some send more, so the bound is looser but still a bound. */
export const MAX_RELAY_STATE = 1024;

/** A parameter of the form (the GET query or the POST body, as parsed): a non-empty text, else undefined. */
export function formText(form: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The enabled organization the path names (a name is at most 63 characters), else null. */
export async function enabledOrganization(em: EntityManager, name: string): Promise<OrganizationRow | null> {
  const org = name.length <= 63 ? await findOrganization(em, { name }) : null;
  return org?.enabled ? org : null;
}

/**
 * The SAML message by the binding of the request's method: POST by HTTP-POST (Bindings 3.5), otherwise by
 * HTTP-Redirect (Bindings 3.4), whose signature covers the query string exactly as sent (Bindings 3.4.4.1).
 */
export function receivedBy(request: EndpointRequest, samlRequest: string): ReceivedRequest {
  return request.method === 'POST' ? { binding: 'post', samlRequest } : { binding: 'redirect', samlRequest, rawQuery: request.rawQuery };
}
