/**
 * Registering a client (`_create_client`): the form, then, in the same dialog, the client ID and the secret
 * shown this once. While the secret is on screen the dialog closes only by its button (no click outside, no
 * Escape), so the secret is not lost by a stray click before it was copied.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DialogButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { clientKeys, createClient, type IssuedClientSecret } from './api.ts';
import { ClientFormFields, clientFields, emptyClientForm, type ClientFormValues } from './client-form-fields.tsx';
import { IssuedSecret } from './issued-secret.tsx';

export function CreateClientModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('clients');
  const navigate = useNavigate();
  const form = useForm<ClientFormValues>({ defaultValues: emptyClientForm });
  const [issued, setIssued] = useState<IssuedClientSecret | undefined>();
  const create = useAdminMutation({
    mutationFn: (values: ClientFormValues) => createClient(clientFields(values)),
    invalidates: [clientKeys.lists()],
    successMessage: () => undefined,
    onSuccess: (answer) => {
      form.reset(emptyClientForm);
      setIssued(answer);
    },
  });

  const close = () => {
    // Forget the secret: nothing keeps it once the dialog is gone (the mutation's own copy included).
    setIssued(undefined);
    create.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={issued ? t('create.createdTitle') : t('create.title')}
      centered
      size="lg"
      closeOnClickOutside={!issued}
      closeOnEscape={!issued}
      withCloseButton={!issued}
    >
      {issued ? (
        <IssuedSecret
          issued={issued}
          onDone={close}
          extraAction={
            <Button
              variant="default"
              onClick={() => {
                const id = issued.client.id;
                close();
                void navigate(`/clients/${encodeURIComponent(id)}`);
              }}
            >
              {t('create.openClient')}
            </Button>
          }
        />
      ) : (
        <form onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <ClientFormFields form={form} autoFocus />
            <DialogButtons onCancel={close} submitLabel={t('create.submit')} submitting={create.isPending} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
