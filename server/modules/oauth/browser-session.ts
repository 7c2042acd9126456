/** The browser session of an /authorize request: the cookie_session pair (kernel/cookies.ts). */
import type { OpContext } from '../../kernel/context.ts';
import { presentedSession } from '../../kernel/cookies.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SessionRow } from '../sessions/index.ts';
import type { UserRow } from '../users/index.ts';
import { validateSessionToken } from '../tokens/index.ts';

export interface BrowserSession {
  session: SessionRow;
  user: UserRow;
}

/** The session of the request's cookie if it is live and its user active; undefined otherwise. */
export async function browserSession(ctx: OpContext): Promise<BrowserSession | undefined> {
  const cookie = presentedSession(ctx.credentials.cookies);
  if (!cookie) return undefined;
  try {
    return await validateSessionToken(ctx, cookie);
  } catch (err) {
    if (err instanceof AppError && err.kind === 'unauthenticated') return undefined;
    throw err;
  }
}
