/**
 * One operation of the API reference: its method, path and summary in the accordion's control, and when
 * opened the credentials it takes, the fields of its request and answer, and its GraphQL
 * and gRPC names. The details are rendered only while open: the page lists every operation of the server.
 */
import { Accordion, Badge, Code, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiOperation, Credential, FieldRow } from './openapi-model.ts';

const METHOD_COLORS: Record<ApiOperation['method'], string> = { GET: 'teal', POST: 'blue' };

export function MethodBadge({ method }: { method: ApiOperation['method'] }) {
  return (
    <Badge color={METHOD_COLORS[method]} variant="light" radius="sm" w={58} style={{ flexShrink: 0 }}>
      {method}
    </Badge>
  );
}

function CredentialBadge({ credential }: { credential: Credential }) {
  const { t } = useTranslation('apiReference');
  const label = credential.kind === 'other' ? credential.scheme : t(`credential.${credential.kind}`, { name: credential.name });
  const badge = <Badge variant="outline" color="gray" radius="sm" tt="none">{label}</Badge>;
  return credential.description ? (
    <Tooltip label={credential.description} multiline w={320} withArrow>
      {badge}
    </Tooltip>
  ) : badge;
}

function FieldTable({ rows, caption }: { rows: FieldRow[]; caption: string }) {
  const { t } = useTranslation('apiReference');
  if (rows.length === 0) return <Text size="sm" c="dimmed">{t('operation.noFields')}</Text>;
  // Most fields are named well enough to carry no description: the column is there when one has something.
  const described = rows.some((row) => row.description || row.limits.length > 0);
  return (
    <Table.ScrollContainer minWidth={described ? 560 : 0}>
      <Table withTableBorder verticalSpacing={6} fz="sm" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.field')}</Table.Th>
            <Table.Th>{t('columns.type')}</Table.Th>
            {described && <Table.Th>{t('columns.description')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.name}>
              <Table.Td>
                <Code style={{ overflowWrap: 'anywhere' }}>{row.name}</Code>
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  <Text size="sm" ff="monospace">{row.type}</Text>
                  <Text size="xs" c={row.required ? 'red.8' : 'dimmed'}>{t(row.required ? 'required' : 'optional')}</Text>
                </Stack>
              </Table.Td>
              {described && (
                <Table.Td>
                  <Text size="sm">{row.description}</Text>
                  {row.limits.length > 0 && (
                    <Text size="xs" c="dimmed">{row.limits.map((limit) => t(`limits.${limit.kind}`, { count: limit.value })).join(', ')}</Text>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OperationDetails({ op }: { op: ApiOperation }) {
  const { t } = useTranslation('apiReference');
  const requestTitle = op.method === 'GET' ? t('operation.query') : t('operation.request');
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Title order={4} size="h6">{t('operation.credentials')}</Title>
        {op.credentials.length === 0 ? (
          <Text size="sm" c="dimmed">{t('operation.noCredentials')}</Text>
        ) : (
          <Group gap={6}>{op.credentials.map((credential) => <CredentialBadge key={credential.scheme} credential={credential} />)}</Group>
        )}
      </Stack>
      <Stack gap={6}>
        <Title order={4} size="h6">
          {requestTitle} {op.request?.name && <Code>{op.request.name}</Code>}
        </Title>
        {op.request ? (
          <FieldTable rows={op.request.fields} caption={t('operation.fieldsCaption', { what: requestTitle, operation: op.id })} />
        ) : (
          <Text size="sm" c="dimmed">{t('operation.noRequest')}</Text>
        )}
      </Stack>
      <Stack gap={6}>
        <Title order={4} size="h6">
          {t('operation.response')} {op.response.name && <Code>{op.response.name}</Code>}
        </Title>
        <FieldTable rows={op.response.fields} caption={t('operation.fieldsCaption', { what: t('operation.response'), operation: op.id })} />
        <Text size="xs" c="dimmed">{t('operation.errors')}</Text>
      </Stack>
      <Group gap="lg">
        {op.graphql && (
          <Text size="sm">
            {t('operation.alsoGraphql')} <Code>{op.graphql}</Code>
          </Text>
        )}
        {op.grpc && (
          <Text size="sm">
            {t('operation.alsoGrpc')} <Code>{op.grpc}</Code>
          </Text>
        )}
      </Group>
    </Stack>
  );
}

export function OperationItem({ op, open }: { op: ApiOperation; open: boolean }) {
  return (
    <Accordion.Item value={op.id} id={`op-${op.id}`}>
      <Accordion.Control>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <MethodBadge method={op.method} />
          <Stack gap={2} miw={0}>
            <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>{op.path}</Text>
            <Text size="sm" c="dimmed">{op.summary}</Text>
          </Stack>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>{open && <OperationDetails op={op} />}</Accordion.Panel>
    </Accordion.Item>
  );
}
