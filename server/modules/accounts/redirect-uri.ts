/**
 * Which redirect_uri an emailed link may carry back to the application (docs/security-lessons.md:
 * no open redirect after verification or reset; OWASP ASVS 5.1.5: redirects only to allow-listed
 * destinations). Allowed: an exact --redirect-uris entry; otherwise an absolute http(s) URL without
 * credentials whose origin is --url's own or an origin named explicitly in --allowed-origins (exact or a
 * `*.` subdomain pattern). The bare `*` of --allowed-origins (its development default) names no origin, so
 * it never allows a redirect: CORS openness is not a redirect allow-list.
 */
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { VerificationRequest } from '../verification/index.ts';
import { AppError } from '../../kernel/errors.ts';
import { originListed } from '../../kernel/origins.ts';

export function isAllowedRedirect(config: Pick<Config, 'url' | 'redirectUris' | 'allowedOrigins'>, uri: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  if (config.redirectUris.includes(uri)) return true;
  if (config.url && new URL(config.url).origin === parsed.origin) return true;
  if (config.redirectUris.length > 0) return false;
  return originListed(config.allowedOrigins, parsed.origin);
}

/** Refuses a redirect_uri that is not allowed; undefined passes through. */
export function checkRedirectUri(config: Pick<Config, 'url' | 'redirectUris' | 'allowedOrigins'>, uri: string | undefined): string | undefined {
  if (uri === undefined || uri === '') return undefined;
  if (!isAllowedRedirect(config, uri)) throw AppError.invalid('redirect_uri is not allowed for this instance');
  return uri;
}

/**
 * The redirect_uri bound to the verification request of `token` when its link was issued, if it is still
 * allowed now; never one from the link's own query (GET /verify_email: no open redirect).
 */
export async function boundRedirectUri(deps: Pick<Deps, 'storage' | 'config'>, token: string): Promise<string | undefined> {
  if (!token) return undefined;
  const row = await deps.storage.fork().findOne(VerificationRequest, { tokenHash: sha256Hex(token) });
  const uri = row?.redirectUri ?? undefined;
  return uri && isAllowedRedirect(deps.config, uri) ? uri : undefined;
}
