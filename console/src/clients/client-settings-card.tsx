/**
 * A client's editable settings (`_update_client`): name, description, allowed scopes, redirect URIs,
 * post-logout redirect URIs and consent. Save sends only what changed; the form follows the saved answer so a
 * reload shows the same.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { clientKeys, updateClient, type ClientFields, type OAuthClient } from './api.ts';
import { ClientFormFields, clientFields, clientFormValues, type ClientFormValues } from './client-form-fields.tsx';

/** The fields whose value differs from the saved client (arrays compared in order: order is what is stored). */
function changedFields(saved: OAuthClient, next: ClientFields): Partial<ClientFields> {
  const changes: Partial<ClientFields> = {};
  if (next.name !== saved.name) changes.name = next.name;
  if (next.description !== saved.description) changes.description = next.description;
  if (next.allowed_scopes.join(' ') !== saved.allowed_scopes.join(' ')) changes.allowed_scopes = next.allowed_scopes;
  if (next.redirect_uris.join('\n') !== saved.redirect_uris.join('\n')) changes.redirect_uris = next.redirect_uris;
  if (next.post_logout_redirect_uris.join('\n') !== saved.post_logout_redirect_uris.join('\n')) {
    changes.post_logout_redirect_uris = next.post_logout_redirect_uris;
  }
  if (next.consent_required !== saved.consent_required) changes.consent_required = next.consent_required;
  if (next.allowed_resources.join('\n') !== saved.allowed_resources.join('\n')) changes.allowed_resources = next.allowed_resources;
  if (next.require_pushed_authorization_requests !== saved.require_pushed_authorization_requests) {
    changes.require_pushed_authorization_requests = next.require_pushed_authorization_requests;
  }
  return changes;
}

export function ClientSettingsCard({ client }: { client: OAuthClient }) {
  const { t } = useTranslation('clients');
  const queryClient = useQueryClient();
  const form = useForm<ClientFormValues>({ defaultValues: clientFormValues(client) });
  const save = useAdminMutation({
    mutationFn: (values: ClientFormValues) => updateClient(client.id, changedFields(client, clientFields(values))),
    invalidates: [clientKeys.lists()],
    successMessage: () => t('settings.saved'),
    onSuccess: (saved) => queryClient.setQueryData(clientKeys.one(client.id), saved),
  });
  // A new server answer (after save, a rotation or a refetch) becomes the form's baseline; fields being
  // edited keep what the admin typed.
  useEffect(() => {
    form.reset(clientFormValues(client), { keepDirtyValues: true });
  }, [client, form]);

  return (
    <SectionCard title={t('settings.title')}>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <ClientFormFields form={form} />
          <FormButtons
            dirty={form.formState.isDirty}
            saving={save.isPending}
            saveLabel={t('settings.save')}
            onReset={() => form.reset(clientFormValues(client))}
            resetLabel={t('settings.reset')}
          />
        </Stack>
      </form>
    </SectionCard>
  );
}
