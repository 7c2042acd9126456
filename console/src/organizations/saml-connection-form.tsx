/**
 * The SAML connection's fields: the IdP's entity ID and single sign-on URL (HTTP-Redirect binding), its signing
 * certificate as PEM (several blocks during a rollover; on an existing connection empty keeps the stored
 * ones), the attributes that carry the email and names (empty: the defaults), the email domains the IdP may
 * assert, and the enabled switch. The server checks the certificate (X.509, unexpired, RSA >= 2048 bits).
 */
import type { UseFormReturn } from 'react-hook-form';
import { Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../common/switch-field.tsx';
import { TagsField } from '../common/tags-field.tsx';
import type { OrgSamlConnection, SamlConnectionFields } from './saml-api.ts';

export interface SamlFormValues {
  idpEntityId: string;
  idpSsoUrl: string;
  idpCertificate: string;
  emailAttribute: string;
  givenNameAttribute: string;
  familyNameAttribute: string;
  allowedEmailDomains: string[];
  enabled: boolean;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

export function samlFormValues(connection?: OrgSamlConnection | null): SamlFormValues {
  return {
    idpEntityId: connection?.idp_entity_id ?? '',
    idpSsoUrl: connection?.idp_sso_url ?? '',
    idpCertificate: '',
    emailAttribute: connection?.email_attribute ?? '',
    givenNameAttribute: connection?.given_name_attribute ?? '',
    familyNameAttribute: connection?.family_name_attribute ?? '',
    allowedEmailDomains: connection?.allowed_email_domains ?? [],
    enabled: connection?.enabled ?? true,
  };
}

/** Every field; the certificate and the attribute names only when given (absent: kept, or the defaults). */
export function samlFields(values: SamlFormValues): SamlConnectionFields {
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    idp_entity_id: values.idpEntityId.trim(),
    idp_sso_url: values.idpSsoUrl.trim(),
    ...(values.idpCertificate.trim() ? { idp_certificate: values.idpCertificate.trim() } : {}),
    ...(optional(values.emailAttribute) ? { email_attribute: optional(values.emailAttribute) } : {}),
    ...(optional(values.givenNameAttribute) ? { given_name_attribute: optional(values.givenNameAttribute) } : {}),
    ...(optional(values.familyNameAttribute) ? { family_name_attribute: optional(values.familyNameAttribute) } : {}),
    allowed_email_domains: values.allowedEmailDomains,
    enabled: values.enabled,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

export function SamlConnectionFormFields({ form, existing }: { form: UseFormReturn<SamlFormValues>; existing: boolean }) {
  const { t } = useTranslation('organizations');
  const { errors } = form.formState;
  return (
    <Stack gap="md">
      <TextInput
        label={t('saml.entityId')}
        description={t('saml.entityIdHint')}
        placeholder="https://idp.example.com/saml"
        required
        spellCheck={false}
        error={errors.idpEntityId?.message}
        {...form.register('idpEntityId', { validate: (value) => Boolean(value.trim()) || t('saml.entityIdRequired') })}
      />
      <TextInput
        label={t('saml.ssoUrl')}
        description={t('saml.ssoUrlHint')}
        placeholder="https://idp.example.com/saml/sso"
        required
        spellCheck={false}
        error={errors.idpSsoUrl?.message}
        {...form.register('idpSsoUrl', {
          validate: (value) => {
            if (!value.trim()) return t('saml.ssoUrlRequired');
            return isHttpUrl(value) || t('saml.ssoUrlBad');
          },
        })}
      />
      <Textarea
        label={t('saml.certificate')}
        description={existing ? t('saml.certificateKeep') : t('saml.certificateHint')}
        placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
        required={!existing}
        autosize
        minRows={3}
        maxRows={10}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        error={errors.idpCertificate?.message}
        {...form.register('idpCertificate', {
          validate: (value) => {
            if (!value.trim()) return existing || t('saml.certificateRequired');
            return PEM_BLOCK.test(value) || t('saml.certificateBad');
          },
        })}
      />
      <Group grow align="flex-start" gap="sm">
        <TextInput label={t('saml.emailAttribute')} placeholder={t('saml.defaultAttribute')} spellCheck={false} {...form.register('emailAttribute')} />
        <TextInput label={t('saml.givenNameAttribute')} placeholder={t('saml.defaultAttribute')} spellCheck={false} {...form.register('givenNameAttribute')} />
        <TextInput label={t('saml.familyNameAttribute')} placeholder={t('saml.defaultAttribute')} spellCheck={false} {...form.register('familyNameAttribute')} />
      </Group>
      <TagsField
        control={form.control}
        name="allowedEmailDomains"
        label={t('saml.allowedDomains')}
        description={t('sso.allowedDomainsHint')}
        placeholder="example.com"
      />
      <SwitchField control={form.control} name="enabled" label={t('saml.enabled')} description={t('saml.enabledHint')} />
    </Stack>
  );
}
