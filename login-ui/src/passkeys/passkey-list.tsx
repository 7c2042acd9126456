/**
 * The signed-in person's passkeys (docs/operations.md#webauthn_credentials / webauthn_delete_credential): each with
 * its name, when it was added and last used, and a delete that asks first (a deleted passkey stops working
 * at once; the person may have no other way in).
 */
import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deletePasskey, passkeys, type Passkey } from '../api/passkey-operations.ts';
import { FormError } from '../layout/form-error.tsx';

export const PASSKEYS_KEY = ['passkeys'] as const;

export function usePasskeys(enabled: boolean) {
  return useQuery({ queryKey: PASSKEYS_KEY, queryFn: passkeys, enabled });
}

function when(seconds: number | null | undefined, language: string): string | undefined {
  return seconds ? new Date(seconds * 1000).toLocaleDateString(language, { dateStyle: 'medium' }) : undefined;
}

export function PasskeyList({ items, onChanged }: { items: Passkey[]; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [target, setTarget] = useState<Passkey | undefined>();
  const [opened, { open, close }] = useDisclosure(false);
  const remove = useMutation({
    mutationFn: (id: string) => deletePasskey(id),
    onSuccess: async () => {
      close();
      await client.invalidateQueries({ queryKey: PASSKEYS_KEY });
      onChanged();
    },
  });
  return (
    <Stack gap="xs" data-testid="passkey-list">
      {items.map((item) => {
        const name = item.name || t('passkeys.unnamed');
        const used = when(item.last_used_at, i18n.language);
        return (
          <Paper key={item.id} withBorder radius="md" px="md" py="xs">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} miw={0}>
                <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {name}
                </Text>
                <Text fz="xs" c="dimmed">
                  {t('passkeys.added', { date: when(item.created_at, i18n.language) ?? '—' })}
                  {used ? ` · ${t('passkeys.lastUsed', { date: used })}` : ''}
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                aria-label={t('passkeys.deleteLabel', { name })}
                onClick={() => {
                  setTarget(item);
                  remove.reset();
                  open();
                }}
              >
                {t('passkeys.delete')}
              </Button>
            </Group>
          </Paper>
        );
      })}
      <Modal opened={opened} onClose={close} title={t('passkeys.deleteTitle')} centered closeOnClickOutside={!remove.isPending}>
        <Stack gap="md">
          <Text fz="sm">{t('passkeys.deleteBody', { name: target?.name || t('passkeys.unnamed') })}</Text>
          <FormError title={t('passkeys.deleteFailed')} error={remove.error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              {t('mfa.lock.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => target && remove.mutate(target.id)}>
              {t('passkeys.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
