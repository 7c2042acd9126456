/**
 * Wire shapes of the SAML IdP key operations (docs/operations.md, "SAML IdP": rotate_saml_idp_cert,
 * retire_saml_idp_key, saml_idp_keys; docs/api-overview.md#states-and-transitions key states). The answer carries each key's public
 * certificate and state, and the IdP's addresses for this organization; never a private key.
 */
import type { Config } from '../../config/flags.ts';
import { s, type Static } from '../../ops/schema.ts';
import type { SamlIdpKeyRow } from './saml-idp.entities.ts';
import { idpEntityId, idpSsoUrl } from './idp-urls.ts';

const id = s.string({ minLength: 1, maxLength: 64 });

export const SamlIdpKeySchema = s.object('SamlIdpKey', {
  id: s.string(),
  state: s.string({ description: 'current (signing), published (in metadata, not signing) or retired' }),
  certificate: s.string({ description: 'PEM of the self-signed X.509 certificate' }),
  fingerprint_sha256: s.string(),
  not_after: s.int64(),
  created_at: s.int64(),
  demoted_at: s.optional(s.int64()),
  retired_at: s.optional(s.int64()),
});

export const SamlIdpKeys = s.object('SamlIdpKeys', {
  keys: s.list(SamlIdpKeySchema),
  metadata_url: s.string({ description: '<--url>/saml/<organization>/metadata, also the IdP entity id' }),
  sso_url: s.string({ description: '<--url>/saml/<organization>/sso (HTTP-Redirect and HTTP-POST)' }),
});

export const SamlIdpKeysRequest = s.object('SamlIdpKeysRequest', { org_id: id });
export const RotateSamlIdpCertRequest = s.object('RotateSamlIdpCertRequest', { org_id: id });
export const RetireSamlIdpKeyRequest = s.object('RetireSamlIdpKeyRequest', { org_id: id, key_id: id });

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toPublicKey(row: SamlIdpKeyRow): Static<typeof SamlIdpKeySchema> {
  return {
    id: row.id,
    state: row.state,
    certificate: row.certificatePem,
    fingerprint_sha256: row.fingerprintSha256,
    not_after: seconds(row.notAfter),
    created_at: seconds(row.createdAt),
    ...(row.demotedAt ? { demoted_at: seconds(row.demotedAt) } : {}),
    ...(row.retiredAt ? { retired_at: seconds(row.retiredAt) } : {}),
  };
}

export function toPublicKeys(config: Pick<Config, 'url'>, orgName: string, rows: SamlIdpKeyRow[]): Static<typeof SamlIdpKeys> {
  return { keys: rows.map(toPublicKey), metadata_url: idpEntityId(config, orgName), sso_url: idpSsoUrl(config, orgName) };
}
