/**
 * The signed-in person's own sessions (docs/tokens.md#a-users-own-sessions): the list with the device of each,
 * ending one (the current one is a sign-out) and ending all the others.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';
import type { MessageAnswer } from './types.ts';

export type MySession = Output<'my_sessions'>['sessions'][number];

/** Everyone's sessions fit one page of the largest size; a person with more sees the newest hundred. */
const LIMIT = 100;

export async function mySessions(): Promise<MySession[]> {
  return (await call('my_sessions', { pagination: { limit: LIMIT } })).sessions;
}

export function revokeMySession(id: string): Promise<MessageAnswer> {
  return call('revoke_my_session', { id });
}

export function revokeMyOtherSessions(): Promise<MessageAnswer> {
  return call('revoke_my_other_sessions', {});
}
