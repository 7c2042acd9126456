/**
 * The OIDC connection's fields: issuer (its discovery document is read by the server), client id, the client
 * secret (write-only: empty keeps the stored one), scopes (openid required), the email domains the IdP may
 * assert (empty: any) and the enabled switch. Checks mirror the server's (connections.service.ts).
 */
import type { UseFormReturn } from 'react-hook-form';
import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../common/switch-field.tsx';
import { TagsField } from '../common/tags-field.tsx';
import type { OidcConnectionFields, OrgOidcConnection } from './sso-api.ts';

export interface OidcFormValues {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  allowedEmailDomains: string[];
  enabled: boolean;
}

export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

export function oidcFormValues(connection?: OrgOidcConnection | null): OidcFormValues {
  return {
    issuer: connection?.issuer ?? '',
    clientId: connection?.client_id ?? '',
    clientSecret: '',
    scopes: connection?.scopes ?? DEFAULT_SCOPES,
    allowedEmailDomains: connection?.allowed_email_domains ?? [],
    enabled: connection?.enabled ?? true,
  };
}

/** Every field, the secret only when one was typed (an empty field keeps the stored secret). */
export function oidcFields(values: OidcFormValues): OidcConnectionFields {
  return {
    issuer: values.issuer.trim(),
    client_id: values.clientId.trim(),
    ...(values.clientSecret ? { client_secret: values.clientSecret } : {}),
    scopes: values.scopes,
    allowed_email_domains: values.allowedEmailDomains,
    enabled: values.enabled,
  };
}

function isIssuer(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
}

export function OidcConnectionFormFields({ form, hasSecret }: { form: UseFormReturn<OidcFormValues>; hasSecret: boolean }) {
  const { t } = useTranslation('organizations');
  const { errors } = form.formState;
  return (
    <Stack gap="md">
      <TextInput
        label={t('sso.issuer')}
        description={t('sso.issuerHint')}
        placeholder="https://idp.example.com"
        required
        spellCheck={false}
        error={errors.issuer?.message}
        {...form.register('issuer', {
          validate: (value) => {
            if (!value.trim()) return t('sso.issuerRequired');
            return isIssuer(value) || t('sso.issuerBad');
          },
        })}
      />
      <TextInput
        label={t('sso.clientId')}
        required
        spellCheck={false}
        error={errors.clientId?.message}
        {...form.register('clientId', { validate: (value) => Boolean(value.trim()) || t('sso.clientIdRequired') })}
      />
      <PasswordInput
        label={t('sso.clientSecret')}
        description={hasSecret ? t('sso.clientSecretKeep') : t('sso.clientSecretHint')}
        placeholder={hasSecret ? t('sso.clientSecretStored') : undefined}
        autoComplete="new-password"
        {...form.register('clientSecret')}
      />
      <TagsField
        control={form.control}
        name="scopes"
        label={t('sso.scopes')}
        description={t('sso.scopesHint')}
        validate={(scopes) => scopes.includes('openid') || t('sso.scopesOpenid')}
      />
      <TagsField
        control={form.control}
        name="allowedEmailDomains"
        label={t('sso.allowedDomains')}
        description={t('sso.allowedDomainsHint')}
        placeholder="example.com"
      />
      <SwitchField control={form.control} name="enabled" label={t('sso.enabled')} description={t('sso.enabledHint')} />
    </Stack>
  );
}
