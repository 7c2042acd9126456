/**
 * The Security page's "Your data" (docs/privacy.md#what-is-exported; GDPR Art. 15 and 20): the signed-in
 * person downloads the JSON copy export_my_data answers, saved under the file name the server gives. The
 * server limits how often (docs/limits.md#rate-limits); its refusal is shown as it comes.
 */
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../ui-shared/contract/public-call.ts';
import { FormError } from '../layout/form-error.tsx';

/** Hands the document to the browser as a file download (no new tab, no URL left behind). */
function saveFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function YourDataSection() {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: () => call('export_my_data', {}),
    onSuccess: (answer) => saveFile(answer.file_name, answer.document),
  });
  return (
    <Stack gap="xs" data-testid="your-data-section">
      <Title order={2} fz="md">
        {t('yourData.title')}
      </Title>
      <Text fz="xs" c="dimmed">
        {t('yourData.description')}
      </Text>
      <FormError title={t('yourData.failed')} error={download.error} />
      {download.data ? (
        <Text fz="sm" role="status" data-testid="your-data-saved">
          {t('yourData.downloaded', { file: download.data.file_name })}
        </Text>
      ) : null}
      <Button variant="light" leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={() => download.mutate()} style={{ alignSelf: 'flex-start' }}>
        {t('yourData.download')}
      </Button>
    </Stack>
  );
}
