/**
 * A failed call in plain words: a heading from the catalogue and the server's own message (errorMessage),
 * announced to screen readers (role=alert), with an optional follow-up action (resend, verify, ...).
 */
import type { ReactNode } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';

export function FormError({ title, error, action }: { title: string; error: unknown; action?: ReactNode }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-error">
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">{sentence(errorMessage(error))}</Text>
        {action}
      </Stack>
    </Alert>
  );
}

/** The server writes terse lower-case messages ("invalid credentials"); shown as a sentence. */
function sentence(message: string): string {
  const trimmed = message.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
