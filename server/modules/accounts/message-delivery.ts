/**
 * The worker side of one message: look the account up, decide whether it gets the message, create the
 * token or code, and hand back the sending. Deciding here rather than in the request is what keeps the
 * enumeration-sensitive flows silent: nothing the caller sees depends on what this finds (OWASP ASVS
 * 2.5.x). A refusal here is not an error: the job is simply done without a message.
 *
 * The token or code exists only in this process, between its creation (stored as a hash or a sealed
 * digest, verification/) and the send; a retry creates a fresh one, which replaces the earlier one.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { findUserByEmail, findUserById, findUserByPhone, rolesForLogin, rolesForSignup, toPublicUser, type UserRow } from '../users/index.ts';
import { storeOtpEmail, storeOtpSms, storeVerificationEmail } from '../verification/index.ts';
import { factorOf, MFA_OTP_PURPOSE, MFA_OTP_TTL_SECONDS } from '../mfa/index.ts';
import { MFA_CODE_FLOW, MFA_LOCK_FLOW, type CodeFlow, type DeliveryDeps, type LinkFlow, type MessageJobRow } from '../messages/index.ts';
import { createAccount } from './create-account.ts';

/** Link lifetimes: verification and invitations a day, sign-in and reset links shorter. */
const LINK_TTL_SECONDS: Record<LinkFlow, number> = {
  basic_auth_signup: 24 * 3600,
  update_email: 24 * 3600,
  invite_member: 7 * 24 * 3600,
  magic_link_login: 15 * 60,
  forgot_password: 30 * 60,
};

/** The account a job addresses, when it still owns the destination. */
async function ownerOf(em: EntityManager, job: MessageJobRow): Promise<UserRow | null> {
  if (job.channel === 'email') {
    const user = job.userId ? await findUserById(em, job.userId) : await findUserByEmail(em, job.destination);
    return user && user.email === job.destination ? user : null;
  }
  const user = job.userId ? await findUserById(em, job.userId) : await findUserByPhone(em, job.destination);
  return user && user.phoneNumber === job.destination ? user : null;
}

/** Whether a known account gets this link: never when revoked, never a second verification. */
function linkWanted(flow: LinkFlow, user: UserRow, job: MessageJobRow): boolean {
  if (user.revokedAt) return false;
  if (flow === 'basic_auth_signup' || flow === 'update_email') return !user.emailVerifiedAt;
  if (flow === 'magic_link_login' && job.options?.roles?.length) {
    try {
      rolesForLogin(user, job.options.roles);
    } catch {
      return false;
    }
  }
  return true;
}

/** magic_link_login for an unknown address: the account is created here, when signup is open. */
async function newMagicLinkAccount(em: EntityManager, deps: Deps, job: MessageJobRow): Promise<UserRow | null> {
  if (job.flow !== 'magic_link_login' || !job.options?.createAccount || !deps.config.enableSignup) return null;
  let roles: string[];
  try {
    roles = rolesForSignup(deps.config, job.options.roles);
  } catch {
    return null;
  }
  return createAccount({ em, deps }, { email: job.destination, signupMethods: ['magic_link_login'], roles });
}

async function prepareLink(em: EntityManager, delivery: DeliveryDeps, job: MessageJobRow): Promise<(() => Promise<void>) | null> {
  const { deps } = delivery;
  const flow = job.flow as LinkFlow;
  let user = await ownerOf(em, job);
  if (user && !linkWanted(flow, user, job)) return null;
  user ??= await newMagicLinkAccount(em, deps, job);
  if (!user) return null;
  return storeVerificationEmail(em, { ...deps, mailer: delivery.mailer }, {
    event: flow,
    to: user.email!,
    user: toPublicUser(user),
    userId: user.id,
    redirectUri: job.redirectUri,
    ttlSeconds: LINK_TTL_SECONDS[flow],
  });
}

async function prepareCode(em: EntityManager, delivery: DeliveryDeps, job: MessageJobRow): Promise<(() => Promise<void>) | null> {
  const { deps } = delivery;
  const flow = job.flow as CodeFlow;
  const user = await ownerOf(em, job);
  if (!user || user.revokedAt) return null;
  if (flow === 'verify_otp' && (!deps.config.enablePhoneVerification || user.phoneNumberVerifiedAt)) return null;
  return storeOtpSms(em, { ...deps, sms: delivery.sms }, { userId: user.id, phone: user.phoneNumber!, purpose: flow });
}

/**
 * A second factor's code: only while the account still owns the destination and still has (or is
 * enrolling) the factor of that channel, so a code never goes to an address the user has since changed.
 */
async function prepareMfaCode(em: EntityManager, delivery: DeliveryDeps, job: MessageJobRow): Promise<(() => Promise<void>) | null> {
  const { deps } = delivery;
  const user = await ownerOf(em, job);
  if (!user || user.revokedAt) return null;
  const method = job.channel === 'email' ? 'email_otp' : 'sms_otp';
  if (!(await factorOf(em, user.id, method))) return null;
  const code = { userId: user.id, purpose: MFA_OTP_PURPOSE[method], ttlSeconds: MFA_OTP_TTL_SECONDS };
  if (job.channel === 'email') {
    return storeOtpEmail(em, { ...deps, mailer: delivery.mailer }, { ...code, email: user.email!, user: toPublicUser(user) });
  }
  return storeOtpSms(em, { ...deps, sms: delivery.sms }, { ...code, phone: user.phoneNumber! });
}

/** The code confirming a lock_mfa: only while the destination is still the account's own. */
async function prepareLockCode(em: EntityManager, delivery: DeliveryDeps, job: MessageJobRow): Promise<(() => Promise<void>) | null> {
  const { deps } = delivery;
  const user = await ownerOf(em, job);
  if (!user || user.revokedAt) return null;
  const code = { userId: user.id, purpose: MFA_LOCK_FLOW, ttlSeconds: MFA_OTP_TTL_SECONDS };
  if (job.channel === 'email') {
    return storeOtpEmail(em, { ...deps, mailer: delivery.mailer }, { ...code, email: user.email!, user: toPublicUser(user) });
  }
  return storeOtpSms(em, { ...deps, sms: delivery.sms }, { ...code, phone: user.phoneNumber! });
}

function prepare(em: EntityManager, delivery: DeliveryDeps, job: MessageJobRow): Promise<(() => Promise<void>) | null> {
  if (job.flow === MFA_CODE_FLOW) return prepareMfaCode(em, delivery, job);
  if (job.flow === MFA_LOCK_FLOW) return prepareLockCode(em, delivery, job);
  return job.channel === 'email' ? prepareLink(em, delivery, job) : prepareCode(em, delivery, job);
}

/**
 * Prepares one job in its own transaction (account, token or code committed before anything is sent, so
 * a link never arrives for a request that was not stored) and sends after the commit: no transaction
 * spans the network call (storage/types.ts rule 9).
 */
export async function deliverMessage(delivery: DeliveryDeps, job: MessageJobRow): Promise<void> {
  const send = await delivery.deps.storage.fork().transactional((em) => prepare(em, delivery, job));
  if (send) await send();
}
