/** Dates and names as the console shows them (timestamps from the API are Unix seconds). */
import i18next from 'i18next';
import type { AdminUser } from '../api/types.ts';

export function formatTimestamp(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  return new Intl.DateTimeFormat(i18next.language || 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

/** Given and family name, else the nickname; empty when the user has none. */
export function displayName(user: Pick<AdminUser, 'given_name' | 'family_name' | 'nickname'>): string {
  const full = [user.given_name, user.family_name].filter(Boolean).join(' ');
  return full || user.nickname || '';
}

/** How a user is named in headings and confirmations: email, else phone, else id. */
export function userLabel(user: Pick<AdminUser, 'id' | 'email' | 'phone_number'>): string {
  return user.email || user.phone_number || user.id;
}
