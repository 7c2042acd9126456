/**
 * The fields of a SAML service provider (docs/api-overview.md#resources-and-fields, "SAML service provider"): its name, entity id,
 * ACS endpoints (HTTP-POST, the one binding of the Web Browser SSO profile's response that is served,
 * Profiles 4.1.2; one default), the SP signing certificate (with it, its AuthnRequests must be signed), the
 * NameID format, the attribute mapping as editable rows (a user field, the SAML attribute name the SP expects),
 * the SP's single logout URL with its binding (HTTP-Redirect or HTTP-POST, SAML 2.0 Bindings 3.4 and 3.5) and
 * the active switch. The server checks them again and says why it refuses.
 */
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { ActionIcon, Badge, Button, Checkbox, Group, Select, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../common/switch-field.tsx';
import type { SamlServiceProvider, SamlServiceProviderFields, SamlSpMetadataPrefill } from './saml-idp-api.ts';

/** The user fields the server maps (server/modules/saml-idp/sp-fields.ts MAPPABLE_FIELDS). */
export const MAPPABLE_FIELDS = ['id', 'email', 'given_name', 'family_name', 'name', 'nickname', 'preferred_username', 'phone_number', 'roles', 'org_roles'];
const NAME_ID_FORMATS = ['emailAddress', 'persistent', 'unspecified'];
const SLO_BINDINGS = ['redirect', 'post'] as const;
type SloBinding = (typeof SLO_BINDINGS)[number];
/** A URL stored before bindings were kept is answered by HTTP-POST (server/modules/saml-idp/sp-fields.ts sloBindingOf). */
const sloBindingOf = (value: string | null | undefined): SloBinding => (value === 'redirect' ? 'redirect' : 'post');
const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const MAX_ACS = 10;
const MAX_MAPPINGS = 20;

export interface SpFormValues {
  name: string;
  entityId: string;
  acs: { url: string; binding: string; index?: number; isDefault: boolean }[];
  certificate: string;
  nameIdFormat: string;
  mapping: { field: string; attribute: string }[];
  active: boolean;
  sloUrl: string;
  sloBinding: SloBinding;
}

export function spFormValues(provider?: SamlServiceProvider): SpFormValues {
  return {
    name: provider?.name ?? '',
    entityId: provider?.entity_id ?? '',
    acs: provider?.acs_endpoints.map((acs) => ({ url: acs.url, binding: acs.binding, index: acs.index, isDefault: acs.is_default })) ?? [{ url: '', binding: HTTP_POST, isDefault: true }],
    certificate: provider?.certificate ?? '',
    nameIdFormat: provider?.name_id_format ?? 'emailAddress',
    mapping: provider?.attribute_mapping.map((row) => ({ ...row })) ?? [],
    active: provider?.active ?? true,
    sloUrl: provider?.slo_url ?? '',
    sloBinding: sloBindingOf(provider?.slo_binding),
  };
}

/** The form filled from pasted metadata: the name typed so far stays, the SP's first known NameID format is taken. */
export function prefilledValues(current: SpFormValues, prefill: SamlSpMetadataPrefill): SpFormValues {
  const format = prefill.name_id_formats.map((urn) => NAME_ID_FORMATS.find((short) => urn.endsWith(`:${short}`))).find(Boolean);
  let host = '';
  try {
    host = new URL(prefill.entity_id).host;
  } catch {
    host = '';
  }
  return {
    ...current,
    name: current.name || host || prefill.entity_id,
    entityId: prefill.entity_id,
    acs: prefill.acs_endpoints.length > 0 ? prefill.acs_endpoints.map((acs) => ({ url: acs.url, binding: acs.binding, index: acs.index, isDefault: acs.is_default })) : current.acs,
    certificate: prefill.certificate ?? '',
    nameIdFormat: format ?? current.nameIdFormat,
    sloUrl: prefill.slo_url ?? '',
    sloBinding: sloBindingOf(prefill.slo_binding),
  };
}

export function spFields(values: SpFormValues): SamlServiceProviderFields {
  return {
    name: values.name.trim(),
    entity_id: values.entityId.trim(),
    acs_endpoints: values.acs.map((acs) => ({ url: acs.url.trim(), binding: acs.binding, is_default: acs.isDefault, ...(acs.index === undefined ? {} : { index: acs.index }) })),
    ...(values.certificate.trim() ? { certificate: values.certificate.trim() } : {}),
    attribute_mapping: values.mapping.map((row) => ({ field: row.field, attribute: row.attribute.trim() })),
    name_id_format: values.nameIdFormat,
    active: values.active,
    ...(values.sloUrl.trim() ? { slo_url: values.sloUrl.trim(), slo_binding: values.sloBinding } : {}),
  };
}

function AcsEndpoints({ form }: { form: UseFormReturn<SpFormValues> }) {
  const { t } = useTranslation('organizations');
  const acs = useFieldArray({ control: form.control, name: 'acs' });
  const errors = form.formState.errors.acs;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('samlIdp.sp.acs')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('samlIdp.sp.acsHint')}
      </Text>
      {acs.fields.map((row, i) => (
        <Group key={row.id} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            aria-label={t('samlIdp.sp.acsUrlOf', { n: i + 1 })}
            placeholder="https://app.example.com/saml/acs"
            spellCheck={false}
            error={errors?.[i]?.url?.message}
            {...form.register(`acs.${i}.url`, { validate: (value) => Boolean(value.trim()) || t('samlIdp.sp.acsRequired') })}
          />
          <Badge variant="light" mt={8} tt="none" title={row.binding}>
            {t('samlIdp.sp.httpPost')}
          </Badge>
          <Controller
            control={form.control}
            name={`acs.${i}.isDefault`}
            render={({ field }) => (
              <Checkbox
                mt={8}
                label={t('samlIdp.sp.default')}
                checked={field.value}
                onChange={(event) => {
                  // One default: ticking one unticks the others (the server refuses two).
                  if (event.currentTarget.checked) acs.fields.forEach((_, j) => form.setValue(`acs.${j}.isDefault`, j === i, { shouldDirty: true }));
                  else field.onChange(false);
                }}
              />
            )}
          />
          <Tooltip label={t('samlIdp.sp.removeAcs')} withArrow>
            <ActionIcon variant="subtle" color="red" mt={4} disabled={acs.fields.length === 1} aria-label={t('samlIdp.sp.removeAcsOf', { n: i + 1 })} onClick={() => acs.remove(i)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} disabled={acs.fields.length >= MAX_ACS} onClick={() => acs.append({ url: '', binding: HTTP_POST, isDefault: false })}>
          {t('samlIdp.sp.addAcs')}
        </Button>
      </Group>
    </Stack>
  );
}

function AttributeMapping({ form }: { form: UseFormReturn<SpFormValues> }) {
  const { t } = useTranslation('organizations');
  const mapping = useFieldArray({ control: form.control, name: 'mapping' });
  const errors = form.formState.errors.mapping;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('samlIdp.sp.mapping')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('samlIdp.sp.mappingHint')}
      </Text>
      {mapping.fields.map((row, i) => (
        <Group key={row.id} gap="xs" wrap="nowrap" align="flex-start">
          <Controller
            control={form.control}
            name={`mapping.${i}.field`}
            rules={{
              validate: (field) => form.getValues('mapping').filter((other) => other.field === field).length === 1 || t('samlIdp.sp.mappedTwice'),
            }}
            render={({ field, fieldState }) => (
              <Select
                w={190}
                aria-label={t('samlIdp.sp.userFieldOf', { n: i + 1 })}
                data={MAPPABLE_FIELDS}
                value={field.value}
                onChange={(next) => field.onChange(next ?? '')}
                allowDeselect={false}
                error={fieldState.error?.message}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <TextInput
            style={{ flex: 1 }}
            aria-label={t('samlIdp.sp.attributeOf', { n: i + 1 })}
            placeholder="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"
            spellCheck={false}
            error={errors?.[i]?.attribute?.message}
            {...form.register(`mapping.${i}.attribute`, { validate: (value) => /^[\x21-\x7e]+$/.test(value.trim()) || t('samlIdp.sp.attributeBad') })}
          />
          <Tooltip label={t('samlIdp.sp.removeMapping')} withArrow>
            <ActionIcon variant="subtle" color="red" mt={4} aria-label={t('samlIdp.sp.removeMappingOf', { n: i + 1 })} onClick={() => mapping.remove(i)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {mapping.fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('samlIdp.sp.noMapping')}
        </Text>
      )}
      <Group>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          disabled={mapping.fields.length >= MAX_MAPPINGS}
          onClick={() => {
            const used = new Set(form.getValues('mapping').map((row) => row.field));
            mapping.append({ field: MAPPABLE_FIELDS.find((field) => !used.has(field)) ?? 'email', attribute: '' });
          }}
        >
          {t('samlIdp.sp.addMapping')}
        </Button>
      </Group>
    </Stack>
  );
}

export function SpFormFields({ form }: { form: UseFormReturn<SpFormValues> }) {
  const { t } = useTranslation('organizations');
  const { errors } = form.formState;
  return (
    <Stack gap="md">
      <TextInput
        label={t('samlIdp.sp.name')}
        required
        error={errors.name?.message}
        {...form.register('name', { validate: (value) => Boolean(value.trim()) || t('samlIdp.sp.nameRequired') })}
      />
      <TextInput
        label={t('samlIdp.sp.entityId')}
        description={t('samlIdp.sp.entityIdHint')}
        placeholder="https://app.example.com/saml/metadata"
        required
        spellCheck={false}
        error={errors.entityId?.message}
        {...form.register('entityId', { validate: (value) => /^[\x21-\x7e]+$/.test(value.trim()) || t('samlIdp.sp.entityIdRequired') })}
      />
      <AcsEndpoints form={form} />
      <Textarea
        label={t('samlIdp.sp.certificate')}
        description={t('samlIdp.sp.certificateHint')}
        placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
        autosize
        minRows={2}
        maxRows={8}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        {...form.register('certificate')}
      />
      <Controller
        control={form.control}
        name="nameIdFormat"
        render={({ field }) => (
          <Select
            label={t('samlIdp.sp.nameIdFormat')}
            description={t('samlIdp.sp.nameIdFormatHint')}
            data={NAME_ID_FORMATS}
            value={field.value}
            onChange={(next) => field.onChange(next ?? 'emailAddress')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <AttributeMapping form={form} />
      <TextInput label={t('samlIdp.sp.sloUrl')} description={t('samlIdp.sp.sloUrlHint')} placeholder="https://app.example.com/saml/slo" spellCheck={false} {...form.register('sloUrl')} />
      <Controller
        control={form.control}
        name="sloBinding"
        render={({ field }) => (
          <Select
            label={t('samlIdp.sp.sloBinding')}
            description={t('samlIdp.sp.sloBindingHint')}
            data={SLO_BINDINGS.map((value) => ({ value, label: t(value === 'redirect' ? 'samlIdp.sp.sloRedirect' : 'samlIdp.sp.sloPost') }))}
            value={field.value}
            onChange={(next) => field.onChange(sloBindingOf(next))}
            allowDeselect={false}
            disabled={!form.watch('sloUrl').trim()}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <SwitchField control={form.control} name="active" label={t('samlIdp.sp.active')} description={t('samlIdp.sp.activeHint')} />
    </Stack>
  );
}
