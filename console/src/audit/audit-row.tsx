/** One audit entry: a summary row that opens to its metadata (pretty JSON, shown as text), user agent and ids. */
import { Code, SimpleGrid, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ExpandableRow } from '../common/expandable-row.tsx';
import { formatTimestamp } from '../common/format.ts';
import type { AuditEntry } from './api.ts';

const AUDIT_COLUMNS = 6;

function prettyMetadata(metadata: string): string {
  try {
    const parsed: unknown = JSON.parse(metadata);
    if (parsed && typeof parsed === 'object' && Object.keys(parsed).length === 0) return '';
    return JSON.stringify(parsed, null, 2);
  } catch {
    return metadata;
  }
}

function Labelled({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value || '—'}
      </Text>
    </div>
  );
}

export function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const time = formatTimestamp(entry.created_at);
  const metadata = prettyMetadata(entry.metadata);
  return (
    <ExpandableRow
      detailId={`audit-${entry.id}`}
      columns={AUDIT_COLUMNS}
      toggleLabel={(open) => t(open ? 'collapse' : 'expand', { action: entry.action, time })}
      cells={
        <>
          <Table.Td>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {time}
            </Text>
          </Table.Td>
          <Table.Td>
            <Code>{entry.action}</Code>
          </Table.Td>
          <Table.Td>
            {/* The super-admin has no id or email: its type names it. */}
            <Text size="sm">{entry.actor_email || entry.actor_id || entry.actor_type || '—'}</Text>
            {(entry.actor_email || entry.actor_id) && (
              <Text size="xs" c="dimmed">
                {entry.actor_type}
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{entry.resource_type || '—'}</Text>
            <Text size="xs" c="dimmed" ff="monospace" lineClamp={1} style={{ wordBreak: 'break-all' }}>
              {entry.resource_id}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm" ff="monospace">
              {entry.ip_address || '—'}
            </Text>
          </Table.Td>
        </>
      }
    >
      <div>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4}>
          {t('detail.metadata')}
        </Text>
        {metadata ? (
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {metadata}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {t('detail.noMetadata')}
          </Text>
        )}
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Labelled label={t('detail.actorId')} value={entry.actor_id} />
        <Labelled label={t('detail.actorType')} value={entry.actor_type} />
        <Labelled label={t('detail.resourceId')} value={entry.resource_id} />
        <Labelled label={t('detail.id')} value={entry.id} />
      </SimpleGrid>
      <Labelled label={t('detail.userAgent')} value={entry.user_agent} />
    </ExpandableRow>
  );
}
