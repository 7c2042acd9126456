/**
 * The ten recovery codes of a new authenticator app, shown this once (the server keeps only their digests):
 * copy all, or download them as a text file, before going on.
 */
import { Button, CopyButton, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { organizationName } from '../layout/auth-layout.tsx';

function download(codes: string[], heading: string): void {
  const text = `${heading}\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${organizationName.replace(/[^\w.-]+/g, '-').toLowerCase()}-recovery-codes.txt`;
  link.click();
  URL.revokeObjectURL(url);
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const all = codes.join('\n');
  return (
    <>
      <Paper withBorder radius="md" p="md" bg="gray.0">
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} data-testid="recovery-codes" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {codes.map((code) => (
            <Text key={code} component="li" ff="monospace" fz="sm" ta="center">
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group grow gap="sm">
        <CopyButton value={all}>
          {({ copied, copy }) => (
            <Button variant="default" size="sm" onClick={copy} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}>
              {copied ? t('mfa.enrol.copied') : t('mfa.enrol.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" size="sm" leftSection={<IconDownload size={16} />} onClick={() => download(codes, t('mfa.enrol.fileHeading', { organization: organizationName }))}>
          {t('mfa.enrol.download')}
        </Button>
      </Group>
    </>
  );
}
