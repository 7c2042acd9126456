/**
 * What the consent page and the device page show alike when a person decides for an application (OpenID
 * Connect Core section 3.1.2.4; RFC 8628 section 3.3): who is signed in, what the application asks for in
 * plain words (scope-words.ts), and the deny and allow buttons. Each page keeps its own title, hint and what
 * follows the decision.
 */
import { Button, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../api/types.ts';
import { orderedScopes, scopeWords } from './scope-words.ts';

export function signedInAs(user: SessionUser): string {
  return user.email || user.phone_number || user.id;
}

export function SignedInAs({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  return (
    <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {t('consent.signedInAs', { who: signedInAs(user) })}
    </Text>
  );
}

/** "<client> asks to:" and each scope once, known ones first. */
export function RequestedScopes({ client, scopes, testId }: { client: string; scopes: readonly string[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text fz="sm" fw={600}>
        {t('consent.asks', { client })}
      </Text>
      <List
        spacing="xs"
        fz="sm"
        center
        data-testid={testId}
        icon={
          <ThemeIcon size={20} radius="xl" variant="light" aria-hidden>
            <IconCheck size={14} />
          </ThemeIcon>
        }
      >
        {orderedScopes(scopes).map((scope) => (
          <List.Item key={scope} data-scope={scope}>
            {scopeWords(scope, t)}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/**
 * Deny and allow. While a decision is on its way (`busy`), the chosen button spins and the other is disabled,
 * so a second click cannot decide a request already decided.
 */
export function DecisionButtons({ busy, chosen, onDecide }: { busy: boolean; chosen: boolean | undefined; onDecide: (approve: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Group grow gap="sm" wrap="wrap-reverse">
      <Button variant="default" disabled={busy && chosen !== false} loading={busy && chosen === false} onClick={() => onDecide(false)}>
        {t('consent.deny')}
      </Button>
      <Button disabled={busy && chosen !== true} loading={busy && chosen === true} onClick={() => onDecide(true)}>
        {t('consent.allow')}
      </Button>
    </Group>
  );
}
