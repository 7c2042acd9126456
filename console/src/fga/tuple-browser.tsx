/**
 * The tuple browser: filters by user, relation and object, read a page at a time on the server
 * (`_fga_read_tuples` with OpenFGA's continuation_token, docs/operations.md), a form to write one
 * tuple, and deletion that asks first. The tokens of the pages seen are kept so "Previous" goes back
 * without a server-side offset.
 */
import { useState } from 'react';
import { Alert, Button, Grid, Group, Paper, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { IconChevronLeft, IconChevronRight, IconFilter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { fgaKeys, readTuples, type TupleFilters } from './api.ts';
import { TupleTable } from './tuple-table.tsx';
import { TupleWriteForm } from './tuple-write-form.tsx';

const PAGE_SIZES = ['10', '25', '50', '100'];
const NO_FILTERS: TupleFilters = { user: '', relation: '', object: '' };

export function TupleBrowser() {
  const { t } = useTranslation('fga');
  const [filters, setFilters] = useState<TupleFilters>(NO_FILTERS);
  const [pageSize, setPageSize] = useState(25);
  // tokens[i] opens page i; page 0 has none.
  const [tokens, setTokens] = useState<string[]>(['']);
  const [page, setPage] = useState(0);
  const token = tokens[page] ?? '';
  const tuples = useQuery({
    queryKey: fgaKeys.tuplePage(filters, pageSize, token),
    queryFn: ({ signal }) => readTuples(filters, pageSize, token, signal),
    placeholderData: keepPreviousData,
  });
  const form = useForm<TupleFilters>({ defaultValues: NO_FILTERS });
  const restart = () => {
    setTokens(['']);
    setPage(0);
  };
  const next = tuples.data?.continuation_token || '';

  return (
    <Stack gap="md">
      <Title order={2}>{t('tuples.title')}</Title>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fga-filter-tuples">
        <form
          noValidate
          role="search"
          onSubmit={form.handleSubmit((values) => {
            setFilters({ user: values.user.trim(), relation: values.relation.trim(), object: values.object.trim() });
            restart();
          })}
        >
          <Stack gap="sm">
            <Title order={3} id="fga-filter-tuples">{t('tuples.filterTitle')}</Title>
            <Grid gap="sm" align="flex-end">
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <TextInput label={t('fields.user')} placeholder="user:anne" {...form.register('user')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 3 }}>
                <TextInput label={t('fields.relation')} placeholder="viewer" {...form.register('relation')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 5 }}>
                <TextInput label={t('fields.object')} placeholder={t('fields.objectFilterPlaceholder')} {...form.register('object')} />
              </Grid.Col>
            </Grid>
            <Group gap="sm">
              <Button type="submit" leftSection={<IconFilter size={18} />}>{t('tuples.applyFilters')}</Button>
              <Button
                variant="default"
                onClick={() => {
                  form.reset(NO_FILTERS);
                  setFilters(NO_FILTERS);
                  restart();
                }}
              >
                {t('tuples.clearFilters')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="fga-stored-tuples">
        <Stack gap="sm">
          <Group justify="space-between" align="center">
            <Title order={3} id="fga-stored-tuples">{t('tuples.storedTitle')}</Title>
            <Select
              label={t('tuples.pageSize')}
              data={PAGE_SIZES}
              value={String(pageSize)}
              allowDeselect={false}
              w={110}
              size="xs"
              onChange={(value) => {
                setPageSize(Number(value ?? 25));
                restart();
              }}
            />
          </Group>
          {tuples.isPending ? <Skeleton height={160} aria-label={t('loading')} /> : null}
          {tuples.isError ? <Alert color="red" role="alert" title={t('tuples.readFailed')}>{errorMessage(tuples.error)}</Alert> : null}
          {tuples.data && tuples.data.tuples.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">{page === 0 ? t('tuples.none') : t('tuples.noMore')}</Text>
          ) : null}
          {tuples.data && tuples.data.tuples.length > 0 ? (
            // The previous page stays in view while the next loads, dimmed and marked busy, never passed off as the answer.
            <div aria-busy={tuples.isPlaceholderData} style={{ opacity: tuples.isPlaceholderData ? 0.5 : 1, transition: 'opacity 120ms' }}>
              <TupleTable tuples={tuples.data.tuples} />
            </div>
          ) : null}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">{t('tuples.pageNumber', { page: page + 1 })}</Text>
            <Group gap="xs">
              <Button variant="default" size="xs" leftSection={<IconChevronLeft size={16} />} disabled={page === 0} onClick={() => setPage(page - 1)}>
                {t('tuples.previous')}
              </Button>
              <Button
                variant="default"
                size="xs"
                rightSection={<IconChevronRight size={16} />}
                disabled={!next || tuples.isPlaceholderData}
                onClick={() => {
                  setTokens([...tokens.slice(0, page + 1), next]);
                  setPage(page + 1);
                }}
              >
                {t('tuples.next')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>

      <TupleWriteForm />
    </Stack>
  );
}
