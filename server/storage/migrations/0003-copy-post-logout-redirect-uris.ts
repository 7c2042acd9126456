/**
 * clients.post_logout_redirect_uris holds where /logout may return a registered client's browser (OpenID Connect
 * RP-Initiated Logout 1.0 section 3.2). Before the column, /logout accepted any of the client's redirect URIs
 * instead, and relying parties were configured that way. So a client written before the column (its list is
 * null) gets its redirect URIs as post-logout targets: a deployment's logout keeps returning where it did, and
 * an administrator can then remove the callbacks that need not be logout targets. Only URIs the new rule
 * accepts are copied (https, or plain http to localhost, 127.0.0.0/8 or [::1], as clients.schema.ts
 * checkedPostLogoutRedirectUris asks); the others are left out and counted in a warning naming the clients. A
 * list already set, empty included, is never touched, so running this again changes nothing. The entity is
 * named, not imported: storage does not depend on modules.
 */
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

const CHUNK = 500;

interface ClientRow {
  id: string;
  clientId: string;
  redirectUris: string[] | null;
  postLogoutRedirectUris: string[] | null;
}

/** The entity registered under `className`, if this storage has it. */
function entity(em: EntityManager, className: string): EntityName | undefined {
  return em.getMetadata().getByClassName(className, false)?.class;
}

/**
 * The host names this machine (RFC 8252 section 8.3): the set of kernel/loopback-host.ts as this migration was
 * written, kept here so that what the migration did does not change with later edits of the live rule.
 */
function loopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function acceptedAsPostLogout(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback(url.hostname));
  } catch {
    return false;
  }
}

async function copyRedirectUris(ctx: MigrationContext): Promise<void> {
  const { em } = ctx;
  const Client = entity(em, 'Client');
  if (!Client) return;
  let copied = 0;
  const leftOut: string[] = [];
  // Pages by id, so each row is read once whatever the flush did.
  for (let after = ''; ;) {
    const where = { postLogoutRedirectUris: null, id: { $gt: after } };
    const clients = (await em.find(Client, where as never, { limit: CHUNK, orderBy: { id: 'asc' } as never })) as unknown as ClientRow[];
    if (clients.length === 0) break;
    after = clients[clients.length - 1]!.id;
    for (const client of clients) {
      const redirects = client.redirectUris ?? [];
      const accepted = redirects.filter(acceptedAsPostLogout);
      if (accepted.length < redirects.length) leftOut.push(client.clientId);
      client.postLogoutRedirectUris = accepted;
      copied += 1;
    }
    await em.flush();
    em.clear();
  }
  if (copied > 0) ctx.logger.info({ clients: copied }, 'redirect URIs of existing clients copied to their post-logout redirect URIs');
  if (leftOut.length > 0) {
    ctx.logger.warn(
      { clients: leftOut.slice(0, 50), count: leftOut.length },
      'plain-http redirect URIs on a non-loopback host were not copied to post_logout_redirect_uris (https required): /logout no longer returns there',
    );
  }
}

export const copyRedirectUrisToPostLogout: DataMigration = {
  id: '0003_copy_post_logout_redirect_uris',
  up: copyRedirectUris,
};
