/**
 * A registered client's per-client OAuth settings (client-grant-settings.entity.ts): reading them for the
 * client's answer, many clients at once, and writing the fields `create_client` and `update_client` take.
 * The flows that use them (oauth/device, oauth/token-exchange, oauth/backchannel) read them through here too,
 * and their own `_client_*` / `_set_client_*` operations write through the same functions, so an
 * administrator's two ways of setting one give the same stored row and the same refusals.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import type { ClientRow } from './client.entity.ts';
import { backchannelUriProblem } from './backchannel-logout-uri.ts';
import { BackchannelLogoutClient, DeviceGrantClient, TokenExchangeClient, type BackchannelLogoutClientRow } from './client-grant-settings.entity.ts';

/** At most this many token exchange audiences per client: a short list an administrator reads. */
export const MAX_EXCHANGE_AUDIENCES = 20;

export interface BackchannelRegistration {
  uri: string;
  sessionRequired: boolean;
}

export interface ClientSettings {
  deviceGrant: boolean;
  /** The audiences the client may exchange tokens for, or undefined when token exchange is off. */
  tokenExchange: string[] | undefined;
  backchannel: BackchannelRegistration | undefined;
}

/** What create_client and update_client may change; an omitted field stays as it is. */
export interface ClientSettingsInput {
  device_grant_enabled?: boolean;
  token_exchange_enabled?: boolean;
  token_exchange_audiences?: string[];
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
}

/**
 * Where a client's logout tokens go: the administrator's registration, or else the one the client gave at
 * /oauth/register (RFC 7591 metadata of OpenID Connect Back-Channel Logout 1.0 section 2.2).
 */
export function backchannelRegistrationFrom(client: Pick<ClientRow, 'registration'>, row: BackchannelLogoutClientRow | undefined | null): BackchannelRegistration | undefined {
  if (row) return { uri: row.uri, sessionRequired: row.sessionRequired };
  const uri = client.registration?.backchannel_logout_uri;
  return uri ? { uri, sessionRequired: client.registration?.backchannel_logout_session_required ?? false } : undefined;
}

export async function backchannelRegistrationOf(em: EntityManager, client: Pick<ClientRow, 'id' | 'registration'>): Promise<BackchannelRegistration | undefined> {
  return backchannelRegistrationFrom(client, await em.findOne(BackchannelLogoutClient, { id: client.id }));
}

/** Whether the registry row `clientRecordId` (clients.id) has the device grant enabled. */
export async function deviceGrantEnabled(em: EntityManager, clientRecordId: string): Promise<boolean> {
  return (await em.count(DeviceGrantClient, { id: clientRecordId })) > 0;
}

/** The audiences the registry row `clientRecordId` may exchange tokens for, or undefined when not allowed. */
export async function exchangeAudiencesOf(em: EntityManager, clientRecordId: string): Promise<string[] | undefined> {
  const row = await em.findOne(TokenExchangeClient, { id: clientRecordId });
  return row ? [...(row.audiences ?? [])] : undefined;
}

/** The settings of each client, by clients.id: three queries whatever the number of clients. */
export async function settingsOf(em: EntityManager, clients: readonly ClientRow[]): Promise<Map<string, ClientSettings>> {
  const ids = clients.map((client) => client.id);
  const [devices, exchanges, backchannels] = ids.length === 0 ? [[], [], []] : await Promise.all([
    em.find(DeviceGrantClient, { id: { $in: ids } }),
    em.find(TokenExchangeClient, { id: { $in: ids } }),
    em.find(BackchannelLogoutClient, { id: { $in: ids } }),
  ]);
  const device = new Set(devices.map((row) => row.id));
  const exchange = new Map(exchanges.map((row) => [row.id, [...(row.audiences ?? [])]]));
  const backchannel = new Map(backchannels.map((row) => [row.id, row]));
  return new Map(clients.map((client) => [client.id, {
    deviceGrant: device.has(client.id),
    tokenExchange: exchange.get(client.id),
    backchannel: backchannelRegistrationFrom(client, backchannel.get(client.id)),
  }]));
}

// The writers below change the managed row (find, then create, change or remove) rather than delete and insert
// natively: a row already loaded in this unit of work (settingsOf above) would otherwise shadow the new one.

export async function setDeviceGrant(em: EntityManager, now: Date, clientRecordId: string, enabled: boolean): Promise<void> {
  const row = await em.findOne(DeviceGrantClient, { id: clientRecordId });
  if (enabled && !row) em.create(DeviceGrantClient, { id: clientRecordId, enabledAt: now });
  else if (!enabled && row) em.remove(row);
  await em.flush();
}

/** Switches token exchange; the audiences (trimmed, each once) replace the previous ones. Answers them. */
export async function setTokenExchange(em: EntityManager, now: Date, clientRecordId: string, enabled: boolean, audiences: readonly string[] = []): Promise<string[]> {
  const row = await em.findOne(TokenExchangeClient, { id: clientRecordId });
  const kept = enabled ? [...new Set(audiences.map((audience) => audience.trim()).filter(Boolean))] : [];
  if (!enabled) {
    if (row) em.remove(row);
  } else if (row) {
    row.audiences = kept;
  } else {
    em.create(TokenExchangeClient, { id: clientRecordId, audiences: kept, enabledAt: now });
  }
  await em.flush();
  return kept;
}

/**
 * Sets the administrator's back-channel logout registration, or removes it with an empty uri (what the client
 * gave at /oauth/register then applies again). The uri is checked by backchannelUriProblem.
 */
export async function setBackchannelLogout(
  em: EntityManager, now: Date, clientRecordId: string, uri: string, sessionRequired: boolean, allowPrivate: boolean,
): Promise<BackchannelRegistration | undefined> {
  const trimmed = uri.trim();
  if (trimmed) {
    const problem = backchannelUriProblem(trimmed, allowPrivate);
    if (problem) throw AppError.invalid(problem);
  }
  const row = await em.findOne(BackchannelLogoutClient, { id: clientRecordId });
  if (!trimmed) {
    if (row) em.remove(row);
  } else if (row) {
    Object.assign(row, { uri: trimmed, sessionRequired, updatedAt: now });
  } else {
    em.create(BackchannelLogoutClient, { id: clientRecordId, uri: trimmed, sessionRequired, updatedAt: now });
  }
  await em.flush();
  return trimmed ? { uri: trimmed, sessionRequired } : undefined;
}

/**
 * The settings fields of create_client or update_client, checked all before any is written so that a refused
 * request changes nothing. Token exchange audiences alone change those of a client already allowed; the
 * session flag alone changes the administrator's registration the client already has.
 */
export async function applySettingsInput(em: EntityManager, now: Date, client: ClientRow, input: ClientSettingsInput, allowPrivate: boolean): Promise<void> {
  const uri = input.backchannel_logout_uri;
  if (uri !== undefined && uri.trim()) {
    const problem = backchannelUriProblem(uri.trim(), allowPrivate);
    if (problem) throw AppError.invalid(problem);
  }
  const current = await settingsOf(em, [client]).then((all) => all.get(client.id)!);
  const adminBackchannel = uri === undefined && input.backchannel_logout_session_required !== undefined
    ? await em.findOne(BackchannelLogoutClient, { id: client.id })
    : undefined;
  if (adminBackchannel === null) {
    throw AppError.invalid('backchannel_logout_session_required: set backchannel_logout_uri with it; the client has no back-channel logout URI set by an administrator');
  }
  const exchangeOn = input.token_exchange_enabled ?? (input.token_exchange_audiences !== undefined ? current.tokenExchange !== undefined : undefined);
  if (input.token_exchange_audiences !== undefined && exchangeOn === false) {
    throw AppError.invalid('token_exchange_audiences: token exchange is off for this client; set token_exchange_enabled too');
  }

  if (input.device_grant_enabled !== undefined) await setDeviceGrant(em, now, client.id, input.device_grant_enabled);
  if (exchangeOn !== undefined) {
    await setTokenExchange(em, now, client.id, exchangeOn, input.token_exchange_audiences ?? (exchangeOn ? current.tokenExchange ?? [] : []));
  }
  if (uri !== undefined) {
    await setBackchannelLogout(em, now, client.id, uri, input.backchannel_logout_session_required ?? false, allowPrivate);
  } else if (adminBackchannel) {
    await setBackchannelLogout(em, now, client.id, adminBackchannel.uri, input.backchannel_logout_session_required!, allowPrivate);
  }
}

/** delete_client: the client's settings rows go with it. */
export async function deleteSettingsOf(em: EntityManager, clientRecordId: string): Promise<void> {
  await em.nativeDelete(DeviceGrantClient, { id: clientRecordId });
  await em.nativeDelete(TokenExchangeClient, { id: clientRecordId });
  await em.nativeDelete(BackchannelLogoutClient, { id: clientRecordId });
}
