/**
 * Who signed in, for the plain OAuth 2.0 providers: each one's profile API mapped onto one shape. An email
 * counts as verified only where the provider says so for that address (GitHub's `verified` on the primary
 * address, Discord's `verified`, LinkedIn's `email_verified`, Twitch's documented verified address, X's
 * `confirmed_email`); Facebook gives no such assertion, so its address is never treated as verified, and
 * Roblox gives no address at all. The linking rule (sign-in.ts) depends on this being strict.
 */
import type { SocialProvider } from '../../config/flags.ts';
import { endpointUrl, type ProviderSettings } from './providers.ts';
import { UpstreamError, getWithToken, str } from './upstream-http.ts';

export interface UpstreamIdentity {
  /** The provider's stable user id (`sub`, GitHub's numeric id, ...). */
  subject: string;
  email?: string;
  /** The upstream asserts that the user controls `email`. */
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
  nickname?: string;
  preferredUsername?: string;
  picture?: string;
}

type Fetcher = (settings: ProviderSettings, accessToken: string) => Promise<UpstreamIdentity>;

function record(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UpstreamError('profile is not a JSON object');
  return value as Record<string, unknown>;
}

function subjectOf(value: unknown): string {
  const subject = typeof value === 'number' ? String(value) : str(value);
  if (!subject) throw new UpstreamError('profile has no user id');
  return subject;
}

/** Splits a display name into given and family name at the first space (best effort, for the profile only). */
function splitName(name: string | undefined): Pick<UpstreamIdentity, 'givenName' | 'familyName'> {
  if (!name) return {};
  const at = name.indexOf(' ');
  return at < 0 ? { givenName: name } : { givenName: name.slice(0, at), familyName: name.slice(at + 1) };
}

/** GitHub REST: /user, and /user/emails for the primary address and its verified flag. */
const github: Fetcher = async (settings, token) => {
  const headers = { accept: 'application/vnd.github+json' };
  const user = record(await getWithToken(endpointUrl(settings, 'https://api.github.com/user'), token, headers));
  const emails = await getWithToken(endpointUrl(settings, 'https://api.github.com/user/emails'), token, headers);
  const list = Array.isArray(emails) ? emails.filter((e): e is Record<string, unknown> => Boolean(e) && typeof e === 'object') : [];
  const primary = list.find((e) => e.primary === true) ?? list.find((e) => e.verified === true);
  return {
    subject: subjectOf(user.id),
    email: str(primary?.email) ?? str(user.email),
    emailVerified: primary?.verified === true,
    ...splitName(str(user.name)),
    nickname: str(user.login),
    preferredUsername: str(user.login),
    picture: str(user.avatar_url),
  };
};

const facebook: Fetcher = async (settings, token) => {
  const me = record(await getWithToken(endpointUrl(settings, 'https://graph.facebook.com/v19.0/me?fields=id,first_name,last_name,email,picture'), token));
  const picture = record(me.picture ?? {}).data;
  return {
    subject: subjectOf(me.id),
    email: str(me.email),
    emailVerified: false,
    givenName: str(me.first_name),
    familyName: str(me.last_name),
    picture: picture && typeof picture === 'object' ? str((picture as Record<string, unknown>).url) : undefined,
  };
};

/** Sign In with LinkedIn using OpenID Connect: the userinfo endpoint's standard claims. */
const linkedin: Fetcher = async (settings, token) => {
  const info = record(await getWithToken(endpointUrl(settings, 'https://api.linkedin.com/v2/userinfo'), token));
  return {
    subject: subjectOf(info.sub),
    email: str(info.email),
    emailVerified: info.email_verified === true,
    givenName: str(info.given_name),
    familyName: str(info.family_name),
    picture: str(info.picture),
  };
};

const discord: Fetcher = async (settings, token) => {
  const me = record(await getWithToken(endpointUrl(settings, 'https://discord.com/api/users/@me'), token));
  const id = subjectOf(me.id);
  const avatar = str(me.avatar);
  return {
    subject: id,
    email: str(me.email),
    emailVerified: me.verified === true,
    nickname: str(me.global_name) ?? str(me.username),
    preferredUsername: str(me.username),
    picture: avatar ? `https://cdn.discordapp.com/avatars/${encodeURIComponent(id)}/${encodeURIComponent(avatar)}.png` : undefined,
  };
};

/** X API v2 /users/me; `confirmed_email` only with the users.email scope, and then confirmed by X. */
const twitter: Fetcher = async (settings, token) => {
  const body = record(await getWithToken(endpointUrl(settings, 'https://api.twitter.com/2/users/me?user.fields=profile_image_url,confirmed_email'), token));
  const me = record(body.data);
  const email = str(me.confirmed_email);
  return {
    subject: subjectOf(me.id),
    email,
    emailVerified: email !== undefined,
    ...splitName(str(me.name)),
    nickname: str(me.username),
    preferredUsername: str(me.username),
    picture: str(me.profile_image_url),
  };
};

/** Twitch Helix Get Users: `email` is "the user's verified email address" (needs user:read:email). */
const twitch: Fetcher = async (settings, token) => {
  const body = record(await getWithToken(endpointUrl(settings, 'https://api.twitch.tv/helix/users'), token, { 'client-id': settings.clientId }));
  const me = record(Array.isArray(body.data) ? body.data[0] : undefined);
  const email = str(me.email);
  return {
    subject: subjectOf(me.id),
    email,
    emailVerified: email !== undefined,
    nickname: str(me.display_name),
    preferredUsername: str(me.login),
    picture: str(me.profile_image_url),
  };
};

/** Roblox OAuth 2.0 userinfo: no email address is ever shared. */
const roblox: Fetcher = async (settings, token) => {
  const info = record(await getWithToken(endpointUrl(settings, 'https://apis.roblox.com/oauth/v1/userinfo'), token));
  return {
    subject: subjectOf(info.sub),
    emailVerified: false,
    nickname: str(info.nickname) ?? str(info.name),
    preferredUsername: str(info.preferred_username),
    picture: str(info.picture),
  };
};

const FETCHERS: Partial<Record<SocialProvider, Fetcher>> = { github, facebook, linkedin, discord, twitter, twitch, roblox };

export async function fetchProfile(provider: SocialProvider, settings: ProviderSettings, accessToken: string): Promise<UpstreamIdentity> {
  const fetcher = FETCHERS[provider];
  if (!fetcher) throw new UpstreamError(`${provider} has no profile API`);
  return fetcher(settings, accessToken);
}
