/**
 * The requested scopes in plain words (OpenID Connect Core section 5.4 for the standard claims scopes,
 * section 11 for offline_access). A scope the catalogue does not know is shown as the client wrote it, so
 * nothing asked for is hidden from the person deciding.
 */
import type { TFunction } from 'i18next';

const KNOWN = ['openid', 'profile', 'email', 'phone', 'address', 'offline_access'] as const;
type KnownScope = (typeof KNOWN)[number];

function isKnown(scope: string): scope is KnownScope {
  return (KNOWN as readonly string[]).includes(scope);
}

export function scopeWords(scope: string, t: TFunction): string {
  return isKnown(scope) ? t(`consent.scopes.${scope}`) : t('consent.scopes.other', { scope });
}

/** Each scope once, the known ones first in the catalogue's order (the order people read them in). */
export function orderedScopes(scopes: readonly string[]): string[] {
  const unique = [...new Set(scopes.filter(Boolean))];
  const known = KNOWN.filter((scope) => unique.includes(scope));
  return [...known, ...unique.filter((scope) => !isKnown(scope))];
}
