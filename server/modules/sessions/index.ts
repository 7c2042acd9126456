/**
 * Login session rows (the cookie_session pair) and the active-user check. Opening, refreshing and ending a
 * session together with its tokens is in modules/tokens (issueSession, endSession, ...), which builds on this.
 * Before there is a session, the browser-bound state of a redirect sign-in (browser-flow.ts).
 */
import { defineModule, defineService } from '../manifest.ts';
import { Session } from './session.entity.ts';
import { sessionAdminOperations } from './admin-sessions.ops.ts';
import { SessionActivity } from './session-activity.ts';

export { Session, authTimeOf, type SessionRow } from './session.entity.ts';
export {
  openSession, findSession, findLiveSessionByToken, revokeSessions, deleteSessionsOfUser,
  onSessionRevoked, onSessionsEnded, type NewSession, type EndedSession,
} from './session-store.ts';
export { activeUser, findActiveUser } from './active-user.ts';
export { deviceOf, SessionActivity, LAST_USED_RESOLUTION_MS, USER_AGENT_MAX_LENGTH, type SessionDevice } from './session-activity.ts';
export { validateSessionToken } from './validate-session.ts';
export { browserSession, type BrowserSession } from './browser-session.ts';
export {
  startBrowserFlow, takeBrowserFlow, startCodeFlow, takeCodeFlow, type BrowserFlowKind, type BrowserFlowRow, type StartedBrowserFlow,
  type TakenBrowserFlow, type CodeFlowRow, type CodeFlowSecrets, type StartedCodeFlow, type TakenCodeFlow,
} from './browser-flow.ts';

export { sessionAdminOperations, sessionReference } from './admin-sessions.ops.ts';

export const sessionsModule = defineModule({
  name: 'sessions',
  entities: [Session],
  operations: sessionAdminOperations,
  // Last-use writes of sessions, at most one a minute per session (session-activity.ts).
  services: [defineService({ key: 'sessionActivity', create: (deps) => new SessionActivity(deps.storage, deps.logger) })],
});
