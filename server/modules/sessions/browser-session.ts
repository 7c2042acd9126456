/**
 * The session a browser presents with its cookie_session pair (kernel/cookies.ts), for the endpoints a
 * browser opens that act for whoever is signed in here (the OAuth authorization endpoint, the SAML
 * identity provider's single sign-on and logout).
 */
import type { OpContext } from '../../kernel/context.ts';
import { presentedSession } from '../../kernel/cookies.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/index.ts';
import type { SessionRow } from './session.entity.ts';
import { validateSessionToken } from './validate-session.ts';

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
