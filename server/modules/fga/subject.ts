/**
 * Who a permission call is about (docs/api-overview.md#authentication, "Subject rule for FGA checks",
 * docs/api-overview.md#resources-and-fields, "Subject form", docs/errors.md#messages-worth-knowing): the subject is
 * the caller; an explicit `user` is honoured only for
 * super-admins or when it equals the caller's own subject; a bare id means `user:<id>`. A token carrying an
 * RFC 8693 `act` claim is an agent acting for its `sub`, so its checks also name `agent:<act.sub>`.
 */
import { AppError } from '../../kernel/errors.ts';
import type { Caller } from '../../kernel/context.ts';

export interface Subject {
  /** The fully qualified subject: `user:<id>` or, for super-admins, any `type:id`. */
  user: string;
  /** `agent:<id>` when the caller is an agent acting for `user`. */
  agent?: string;
}

/** docs/api-overview.md#resources-and-fields: `type:id` as given, a bare id as `user:<id>`. */
export function qualifySubject(raw: string): string {
  const subject = raw.trim();
  if (!subject) throw AppError.invalid('user must not be empty');
  return subject.includes(':') ? subject : `user:${subject}`;
}

/** The `agent:<id>` of an RFC 8693 `act` claim (the outermost actor is the current one), if any. */
export function agentOf(claims: Record<string, unknown> | undefined): string | undefined {
  const act = claims?.act;
  if (act === null || typeof act !== 'object') return undefined;
  const sub = (act as { sub?: unknown }).sub;
  if (typeof sub !== 'string' || !sub) return undefined;
  return sub.startsWith('agent:') ? sub : `agent:${sub}`;
}

/** Applies the subject rule to a resolved caller and an optional explicit `user`. */
export function subjectOf(caller: Caller, explicitUser: string | undefined): Subject {
  const given = explicitUser === undefined || explicitUser === '' ? undefined : qualifySubject(explicitUser);
  if (caller.kind === 'super_admin') {
    if (!given) throw AppError.invalid('user is required when a super-admin calls a permission operation');
    return { user: given };
  }
  if (caller.kind !== 'user') throw AppError.unauthenticated();
  const own = `user:${caller.userId}`;
  if (given !== undefined && given !== own) {
    throw AppError.forbidden('an explicit user is honoured only for super-admins or when it is the caller itself');
  }
  return { user: own, agent: agentOf(caller.claims) };
}
