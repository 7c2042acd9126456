/**
 * Helpers for the token and session tests: users made directly in the database (the users service is
 * built elsewhere), a handler context like the one invoke() builds, and sessions issued through it.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { App } from '../../server/app.ts';
import type { HandlerContext } from '../../server/ops/define.ts';
import type { Credentials } from '../../server/kernel/context.ts';
import { ResponseEffects } from '../../server/kernel/effects.ts';
import { User, type UserRow } from '../../server/modules/users/user.entity.ts';
import { issueSession, type IssueSessionOptions, type TokenSet } from '../../server/modules/tokens/index.ts';

export async function createUser(app: App, fields: Partial<UserRow> = {}): Promise<UserRow> {
  const em = app.deps.storage.fork();
  const now = app.deps.clock.now();
  const user = em.create(User, {
    id: randomUUID(),
    email: `${randomUUID().slice(0, 8)}@example.com`,
    emailVerifiedAt: now,
    // A proven address (users/address-proof.ts), as the ID token and /userinfo assert only those.
    emailVerifiedVia: 'link',
    signupMethods: 'basic_auth',
    givenName: 'Ada',
    familyName: 'Lovelace',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$notarealhashnotarealhash',
    roles: ['user'],
    createdAt: now,
    updatedAt: now,
    ...fields,
  });
  await em.flush();
  return user;
}

export function handlerContext(app: App, em: EntityManager, credentials: Partial<Credentials> = {}): HandlerContext {
  return {
    deps: app.deps,
    req: { requestId: randomUUID(), protocol: 'internal', ip: '127.0.0.1' },
    credentials: { cookies: {}, ...credentials },
    effects: new ResponseEffects(),
    log: app.deps.logger,
    caller: { kind: 'anonymous' },
    em,
    // Token tests send nothing; a task queued here would be a test bug, so it fails loudly.
    afterCommit: () => {
      throw new Error('afterCommit is not expected in token tests');
    },
  };
}

/** Issues a session the way a login handler does (in a transaction); answers the tokens and the cookie effects. */
export async function login(
  app: App,
  user: UserRow,
  options: Partial<IssueSessionOptions> = {},
): Promise<{ tokens: TokenSet; effects: ResponseEffects; sessionToken: string }> {
  const effects = new ResponseEffects();
  const tokens = await app.deps.storage.fork().transactional((tx) =>
    issueSession({ ...handlerContext(app, tx), effects }, user, { roles: ['user'], loginMethod: 'basic_auth', ...options }),
  );
  const sessionToken = effects.cookies.find((c) => c.name === 'cookie_session')!.value;
  return { tokens, effects, sessionToken };
}
