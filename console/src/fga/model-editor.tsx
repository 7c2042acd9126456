/**
 * The model editor: the current authorization model in CodeMirror, checked as you type by the server's
 * parser (dsl-lint.ts), saved as a new model version (`_fga_write_model`, docs/operations.md: models are
 * append-only). A refusal shows the server's own message, which lists every problem with line and column.
 */
import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, List, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { lintGutter } from '@codemirror/lint';
import { IconAlertTriangle, IconCircleCheck, IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { fgaKeys, readModel, writeModel, type FgaModel } from './api.ts';
import { describeProblem, dslLinter } from './dsl-lint.ts';
import { fgaDsl } from './dsl-language.ts';
import type { DslCheck } from './dsl-checker.ts';
import { EXAMPLE_MODEL } from './example-model.ts';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

export function ModelEditor() {
  const { t } = useTranslation('fga');
  const queryClient = useQueryClient();
  const model = useQuery({ queryKey: fgaKeys.model(), queryFn: ({ signal }) => readModel(signal) });
  // Here rather than in the draft: a saved version remounts the draft, and the outcome must stay on screen.
  const save = useMutation({
    mutationFn: writeModel,
    onSuccess: (saved) => {
      queryClient.setQueryData(fgaKeys.model(), saved);
      // Tuples are checked against the current model: what the browser showed may now read differently.
      void queryClient.invalidateQueries({ queryKey: fgaKeys.tuples() });
    },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline">
        <Title order={2}>{t('model.title')}</Title>
        {model.data?.id ? (
          <Badge variant="light" tt="none" size="lg" aria-label={t('model.versionLabel', { id: model.data.id })}>
            {t('model.version', { id: model.data.id })}
          </Badge>
        ) : null}
      </Group>
      <Text c="dimmed" size="sm">{t('model.intro')}</Text>
      {model.isPending ? <Skeleton height={360} aria-label={t('loading')} /> : null}
      {model.isError ? (
        <Alert color="red" icon={<IconAlertTriangle />} title={t('model.loadFailed')}>
          {errorMessage(model.error)}
        </Alert>
      ) : null}
      {/* Keyed by version: a newly saved or reloaded model starts a fresh draft. */}
      {model.data ? <ModelDraft key={model.data.id || 'empty'} stored={model.data} save={save} /> : null}
    </Stack>
  );
}

function ModelDraft({ stored, save }: { stored: FgaModel; save: UseMutationResult<FgaModel, Error, string> }) {
  const { t } = useTranslation('fga');
  const [draft, setDraft] = useState(stored.dsl || EXAMPLE_MODEL);
  const [check, setCheck] = useState<DslCheck | undefined>(undefined);
  const extensions = useMemo(
    () => [
      fgaDsl,
      dslLinter(setCheck),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': t('model.editorLabel') }),
    ],
    [t],
  );
  const unchanged = draft === stored.dsl;
  const dirty = draft !== (stored.dsl || EXAMPLE_MODEL);

  return (
    <Stack gap="sm">
      <UnsavedChangesGuard dirty={dirty && !save.isPending} />
      {!stored.id ? (
        <Alert color="blue" variant="light" title={t('model.emptyTitle')}>
          {t('model.emptyBody')}
        </Alert>
      ) : null}
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <CodeMirror
          value={draft}
          onChange={(value) => {
            setDraft(value);
            save.reset();
          }}
          extensions={extensions}
          minHeight="320px"
          maxHeight="60vh"
          basicSetup={{ foldGutter: false, highlightActiveLine: true }}
          indentWithTab
        />
      </Paper>
      <Text size="xs" c="dimmed">{t('model.keyboardHint')}</Text>
      <ProblemSummary check={check} />
      {save.isError ? (
        <Alert color="red" icon={<IconAlertTriangle />} title={t('model.saveFailed')} role="alert">
          {errorMessage(save.error)}
        </Alert>
      ) : null}
      {save.isSuccess ? (
        <Alert color="green" icon={<IconCircleCheck />} title={t('model.saved')} role="status">
          {t('model.savedBody', { id: save.data.id })}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" disabled={!dirty || save.isPending} onClick={() => { setDraft(stored.dsl || EXAMPLE_MODEL); save.reset(); }}>
          {t('model.revert')}
        </Button>
        <Button leftSection={<IconDeviceFloppy size={18} />} loading={save.isPending} disabled={unchanged && !!stored.id} onClick={() => save.mutate(draft)}>
          {t('model.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** What the parser found, in words (announced politely), so the result is not only a squiggle in the gutter. */
function ProblemSummary({ check }: { check: DslCheck | undefined }) {
  const { t } = useTranslation('fga');
  if (check === undefined) {
    return <Text size="sm" c="dimmed" aria-live="polite">{t('model.checking')}</Text>;
  }
  if (check.kind !== 'checked') {
    return (
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="dsl-status">
        {check.kind === 'too-slow' ? t('model.checkTooSlow') : t('model.checkUnavailable')}
      </Text>
    );
  }
  const { problems } = check;
  if (problems.length === 0) {
    return (
      <Group gap={6} aria-live="polite" data-testid="dsl-status">
        <IconCircleCheck size={18} color="var(--mantine-color-green-7)" aria-hidden />
        <Text size="sm" c="green.8">{t('model.noProblems')}</Text>
      </Group>
    );
  }
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title={t('model.problems', { count: problems.length })} aria-live="polite" data-testid="dsl-status">
      <List size="sm" spacing={2}>
        {problems.slice(0, 10).map((problem, index) => (
          <List.Item key={index}>
            {problem.line === undefined
              ? describeProblem(problem)
              : t('model.problemAt', { line: problem.line + 1, column: (problem.columnStart ?? 0) + 1, message: describeProblem(problem) })}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
