/**
 * The server's rendering of the draft (`_preview_email_template`, asked for 400 ms after the last keystroke)
 * in a sandboxed frame: `sandbox=""` gives the mail's HTML an opaque origin with no scripts, forms, popups or
 * navigation, and srcdoc keeps it out of the console's own document, so nothing in a template can reach the
 * admin's session. A draft the server refuses shows the server's message in place of the frame.
 */
import { Alert, Box, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { SectionCard } from '../users/section-card.tsx';
import { useEmailPreview } from './api.ts';

const DEBOUNCE_MS = 400;

export function TemplatePreview({ event, subject, template }: { event: string; subject: string; template: string }) {
  const { t } = useTranslation('emailTemplates');
  const [draft] = useDebouncedValue({ subject, template }, DEBOUNCE_MS);
  const preview = useEmailPreview(event, draft.subject, draft.template);
  const empty = !draft.subject.trim() || !draft.template.trim();

  return (
    <SectionCard
      title={t('preview.title')}
      description={t('preview.description')}
      actions={preview.isFetching ? <Loader size="xs" aria-label={t('preview.rendering')} /> : undefined}
    >
      {empty ? (
        <Text size="sm" c="dimmed">
          {t('preview.empty')}
        </Text>
      ) : preview.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('preview.refused')} role="alert">
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {errorMessage(preview.error)}
          </Text>
        </Alert>
      ) : (
        <Stack gap="sm" style={{ opacity: preview.isPlaceholderData ? 0.6 : 1 }}>
          <Group gap="xs" wrap="nowrap" align="baseline">
            <Text size="sm" c="dimmed" fw={500}>
              {t('preview.subject')}
            </Text>
            <Text size="sm" fw={600} data-testid="preview-subject" style={{ wordBreak: 'break-word' }}>
              {preview.data?.subject ?? ''}
            </Text>
          </Group>
          <Paper withBorder radius="sm" style={{ overflow: 'hidden' }}>
            {preview.data ? (
              // A new frame for each rendering, created with its final srcdoc: Chromium could leave a frame
              // unpainted when a freshly mounted one was navigated twice in a row (empty, then the mail).
              <Box
                key={preview.dataUpdatedAt}
                component="iframe"
                title={t('preview.frame')}
                sandbox=""
                srcDoc={preview.data.html}
                referrerPolicy="no-referrer"
                w="100%"
                h={480}
                bg="white"
                style={{ border: 0, display: 'block' }}
              />
            ) : (
              <Group h={480} justify="center">
                <Loader size="sm" />
              </Group>
            )}
          </Paper>
        </Stack>
      )}
    </SectionCard>
  );
}
