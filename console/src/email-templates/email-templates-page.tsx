/**
 * The six email events (docs/events.md#email-template-events), each marked Custom when a template is
 * stored for it (`_email_templates`) and Built-in otherwise, with a link to its editor.
 */
import { Anchor, Badge, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { formatTimestamp } from '../common/format.ts';
import { EMAIL_EVENTS, useEmailTemplates, type EmailTemplate } from './api.ts';

function EventRow({ event, stored, loading }: { event: string; stored?: EmailTemplate; loading: boolean }) {
  const { t } = useTranslation('emailTemplates');
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/email-templates/${event}`} fw={600} size="sm" ff="monospace">
          {event}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{t(`events.${event}`)}</Text>
      </Table.Td>
      <Table.Td>
        {loading ? (
          <Skeleton height={18} width={70} radius="xl" />
        ) : stored ? (
          <Badge color="portcullis" variant="light" tt="none">
            {t('status.custom')}
          </Badge>
        ) : (
          <Badge color="gray" variant="outline" tt="none">
            {t('status.builtIn')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{stored ? formatTimestamp(stored.updated_at) : '—'}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function EmailTemplatesPage() {
  const { t } = useTranslation('emailTemplates');
  const templates = useEmailTemplates();

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} />
      <Paper withBorder radius="md" p="md">
        {templates.isError ? (
          <QueryError error={templates.error} onRetry={() => void templates.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label={t('caption')} verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.event')}</Table.Th>
                  <Table.Th>{t('columns.purpose')}</Table.Th>
                  <Table.Th>{t('columns.template')}</Table.Th>
                  <Table.Th>{t('columns.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {EMAIL_EVENTS.map((event) => (
                  <EventRow
                    key={event}
                    event={event}
                    loading={templates.isPending}
                    stored={templates.data?.find((template) => template.event_name === event)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
