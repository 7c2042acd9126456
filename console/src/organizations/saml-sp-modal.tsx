/**
 * Registering or editing a SAML service provider. A new one may start from its pasted metadata: the server
 * reads it (`_import_saml_sp_metadata`, hardened XML, nothing fetched, nothing stored) and the form is filled
 * from its answer for the admin to check; bad XML gets the server's refusal under the field.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Divider, Group, Modal, Stack, Textarea } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { DialogButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { createSamlServiceProvider, importSamlSpMetadata, samlIdpKeys, updateSamlServiceProvider, type SamlServiceProvider } from './saml-idp-api.ts';
import { prefilledValues, spFields, spFormValues, SpFormFields, type SpFormValues } from './saml-sp-form.tsx';

function MetadataImport({ orgId, onRead }: { orgId: string; onRead: (prefill: Awaited<ReturnType<typeof importSamlSpMetadata>>) => void }) {
  const { t } = useTranslation('organizations');
  const [xml, setXml] = useState('');
  const read = useMutation({ mutationFn: () => importSamlSpMetadata(orgId, xml), onSuccess: onRead });
  return (
    <Stack gap="xs">
      <Textarea
        label={t('samlIdp.sp.metadata')}
        description={t('samlIdp.sp.metadataHint')}
        placeholder={'<md:EntityDescriptor entityID="https://app.example.com/saml/metadata" …>'}
        autosize
        minRows={3}
        maxRows={8}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={xml}
        onChange={(event) => {
          setXml(event.currentTarget.value);
          read.reset();
        }}
        error={read.isError ? errorMessage(read.error) : undefined}
      />
      <Group justify="flex-end">
        <Button size="xs" variant="light" leftSection={<IconFileImport size={14} />} disabled={!xml.trim()} loading={read.isPending} onClick={() => read.mutate()}>
          {t('samlIdp.sp.readMetadata')}
        </Button>
      </Group>
    </Stack>
  );
}

/** `provider` undefined: register a new service provider. */
export function SamlSpModal({ opened, orgId, provider, onClose }: { opened: boolean; orgId: string; provider?: SamlServiceProvider; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const form = useForm<SpFormValues>({ defaultValues: spFormValues(provider) });
  const [importKey, setImportKey] = useState(0);
  useEffect(() => {
    if (opened) {
      form.reset(spFormValues(provider));
      setImportKey((key) => key + 1);
    }
  }, [opened, provider, form]);
  const save = useAdminMutation({
    mutationFn: (values: SpFormValues) => {
      if (!provider) return createSamlServiceProvider(orgId, spFields(values));
      // The stored certificate left as it was is not sent again: saving a mapping must not re-check it.
      const { certificate, ...fields } = spFields(values);
      const changed = certificate !== undefined && certificate !== provider.certificate?.trim();
      return updateSamlServiceProvider(provider.id, changed ? { ...fields, certificate } : fields, !values.certificate.trim());
    },
    invalidates: [samlIdpKeys.providers(orgId)],
    successMessage: (saved) => t(provider ? 'samlIdp.sp.saved' : 'samlIdp.sp.created', { name: saved.name }),
    onSuccess: onClose,
  });

  return (
    <Modal opened={opened} onClose={onClose} title={provider ? t('samlIdp.sp.editTitle', { name: provider.name }) : t('samlIdp.sp.createTitle')} centered size="xl">
      <Stack gap="md">
        {!provider && (
          <>
            <MetadataImport
              key={importKey}
              orgId={orgId}
              onRead={(prefill) => {
                form.reset(prefilledValues(form.getValues(), prefill), { keepDefaultValues: true });
              }}
            />
            <Divider label={t('samlIdp.sp.orByHand')} labelPosition="center" />
          </>
        )}
        <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
          <Stack gap="md">
            <SpFormFields form={form} />
            <DialogButtons onCancel={onClose} submitLabel={provider ? t('samlIdp.sp.save') : t('samlIdp.sp.create')} submitting={save.isPending} />
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
