/**
 * The API reference (/dashboard/api-reference): the server's own OpenAPI 3.1 document (GET /openapi.json,
 * generated from the operation registry at the server) rendered with the console's components, so it is
 * served from the executable with no CDN and no script but the console's own (the CSP allows no other).
 * Operations are grouped by tag; a search narrows them, kept in the URL (`?q=`), and `#op-<name>` opens one.
 */
import { useEffect, useMemo, useState } from 'react';
import { Accordion, Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconListSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { SearchField } from '../common/search-field.tsx';
import { DocText } from './doc-text.tsx';
import { OperationItem } from './operation-item.tsx';
import { matchingOperations, operationsByTag, type OpenApiDocument } from './openapi-model.ts';

const OPENAPI_URL = '/openapi.json';

/** A failed read of the document, with its HTTP status (404: the server does not mount REST /v1). */
class DocumentUnavailable extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`GET ${OPENAPI_URL} answered ${status}`);
    this.status = status;
  }
}

function useOpenApiDocument() {
  return useQuery({
    queryKey: ['openapi-document'],
    queryFn: async ({ signal }): Promise<OpenApiDocument> => {
      const response = await fetch(OPENAPI_URL, { signal, credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!response.ok) throw new DocumentUnavailable(response.status);
      return (await response.json()) as OpenApiDocument;
    },
    // The document changes only with the server's version.
    staleTime: Infinity,
  });
}

export function ApiReferencePage() {
  const { t } = useTranslation('apiReference');
  const document = useOpenApiDocument();
  const [params, setParams] = useSearchParams();
  const { hash } = useLocation();
  const query = params.get('q') ?? '';
  const linked = hash.startsWith('#op-') ? decodeURIComponent(hash.slice(4)) : undefined;
  const [opened, setOpened] = useState<string[]>(() => (linked ? [linked] : []));
  const tags = useMemo(() => (document.data ? operationsByTag(document.data) : []), [document.data]);
  // A link to one operation opens it and brings it into view, once the document has arrived; the browser's
  // own jump to the fragment came before the operation existed.
  useEffect(() => {
    if (!linked || !document.data) return;
    setOpened((current) => (current.includes(linked) ? current : [...current, linked]));
    window.document.getElementById(`op-${linked}`)?.scrollIntoView({ block: 'start' });
  }, [linked, document.data]);
  const shown = useMemo(() => matchingOperations(tags, query), [tags, query]);
  const count = shown.reduce((sum, tag) => sum + tag.operations.length, 0);

  const setQuery = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('q', value);
    else next.delete('q');
    setParams(next, { replace: true });
  };

  const download = (
    <Button component="a" href={OPENAPI_URL} download="portcullis.v1.json" variant="default" leftSection={<IconDownload size={16} />}>
      {t('download')}
    </Button>
  );

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} actions={download} />
      {document.isPending && <Skeleton height={420} radius="md" aria-label={t('loading')} />}
      {document.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {document.error instanceof DocumentUnavailable && document.error.status === 404
            ? t('notServed')
            : t('loadFailed', { status: document.error instanceof DocumentUnavailable ? document.error.status : '-' })}
        </Alert>
      )}
      {document.data && (
        <>
          <Paper withBorder radius="md" mb="lg">
            <Accordion chevronPosition="left">
              <Accordion.Item value="overview">
                <Accordion.Control>
                  <Text fw={600} size="sm">{t('overview')}</Text>
                </Accordion.Control>
                <Accordion.Panel>
                  <DocText source={document.data.info.description ?? ''} />
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
          </Paper>
          <SearchField label={t('search.label')} placeholder={t('search.placeholder')} value={query} onChange={setQuery} busy={false} />
          <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
            {t('count', { count })}
          </Text>
          {shown.length === 0 && (
            <Paper withBorder radius="md" p="xl">
              <Stack align="center" gap="xs">
                <IconListSearch size={28} />
                <Text>{t('empty', { query })}</Text>
              </Stack>
            </Paper>
          )}
          {shown.map((tag) => (
            <Paper key={tag.name} component="section" withBorder radius="md" p="md" mb="lg" aria-labelledby={`tag-${tag.name}`}>
              <Title order={2} size="h4" id={`tag-${tag.name}`}>
                {tag.name}
              </Title>
              {tag.description && <Text size="sm" c="dimmed" mb="sm">{tag.description}</Text>}
              <Accordion multiple value={opened} onChange={setOpened} variant="contained" radius="md">
                {tag.operations.map((op) => <OperationItem key={op.id} op={op} open={opened.includes(op.id)} />)}
              </Accordion>
            </Paper>
          ))}
        </>
      )}
    </Stack>
  );
}
