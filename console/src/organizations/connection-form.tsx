/**
 * The form of an organization's single sign-on connection, OIDC or SAML alike: it creates the connection when
 * there is none and saves changes otherwise (the answer becomes the card's data, no refetch); deleting it
 * confirms first, because sign-ins through it stop at once.
 */
import { useEffect, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { Group, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../common/confirm.tsx';
import { FormButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import type { Organization } from './api.ts';

/** The server calls of one kind of connection, with the form's values. */
export interface ConnectionApi<Values, Connection> {
  create: (orgId: string, values: Values) => Promise<Connection>;
  update: (id: string, values: Values) => Promise<Connection>;
  remove: (id: string) => Promise<unknown>;
}

export function ConnectionForm<Values extends FieldValues, Connection extends { id: string }>({
  organization, connection, api, queryKey, formValues, kind, issuer, children,
}: {
  organization: Organization;
  connection: Connection | null;
  api: ConnectionApi<Values, Connection>;
  /** The query that holds the organization's connection of this kind. */
  queryKey: QueryKey;
  /** The form's values for the connection, its defaults when there is none. */
  formValues: (connection: Connection | null) => Values;
  /** Where the card's words are in the catalogue: "sso" (OIDC) or "saml". */
  kind: 'sso' | 'saml';
  /** The IdP the deletion's question names. */
  issuer: (connection: Connection) => string;
  /** The connection's own fields. */
  children: (form: UseFormReturn<Values>) => ReactNode;
}) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const form = useForm<Values>({ defaultValues: formValues(connection) as DefaultValues<Values> });
  useEffect(() => {
    form.reset(formValues(connection));
  }, [connection, form, formValues]);
  const save = useAdminMutation({
    mutationFn: (values: Values) => (connection ? api.update(connection.id, values) : api.create(organization.id, values)),
    invalidates: [],
    successMessage: () => (connection ? t(`${kind}.saved`) : t(`${kind}.created`)),
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
  });
  const remove = useAdminMutation({
    mutationFn: (id: string) => api.remove(id),
    invalidates: [],
    onSuccess: () => queryClient.setQueryData(queryKey, null),
  });

  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        {children(form)}
        <Group justify="space-between" gap="sm">
          {connection ? (
            <ConfirmButton
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              loading={remove.isPending}
              confirmTitle={t(`${kind}.deleteTitle`)}
              confirmBody={t(`${kind}.deleteBody`, { org: organization.display_name, issuer: issuer(connection) })}
              confirmLabel={t(`${kind}.deleteConfirm`)}
              onConfirm={() => remove.mutate(connection.id)}
            >
              {t(`${kind}.delete`)}
            </ConfirmButton>
          ) : (
            <span />
          )}
          <FormButtons
            dirty={form.formState.isDirty}
            saving={save.isPending}
            saveLabel={connection ? t(`${kind}.save`) : t(`${kind}.create`)}
            onReset={connection ? () => form.reset(formValues(connection)) : undefined}
          />
        </Group>
      </Stack>
    </form>
  );
}
