/**
 * The template of one email event: subject and HTML beside the server's live preview. Saving adds the
 * event's template (`_add_email_template`) or changes the stored one (`_update_email_template`); the server
 * refuses a template that does not render, and its message is shown. "Restore the built-in one" deletes the
 * stored template (`_delete_email_template`).
 */
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert, Badge, Grid, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { BackLink } from '../common/record-page.tsx';
import { isEmailEvent, useEmailTemplates, type EmailEvent } from './api.ts';
import { starterTemplate } from './starter-template.ts';
import { TemplateEditor, type TemplateFormValues } from './template-editor.tsx';
import { TemplatePreview } from './template-preview.tsx';

function Editor({ event }: { event: EmailEvent }) {
  const { t } = useTranslation('emailTemplates');
  const templates = useEmailTemplates();
  const stored = templates.data?.find((template) => template.event_name === event);
  const initial = useMemo<TemplateFormValues>(() => (stored ? { subject: stored.subject, template: stored.template } : starterTemplate(event)), [stored, event]);
  const form = useForm<TemplateFormValues>({ defaultValues: initial });
  // A save or a restore changes what is stored: the form starts again from it.
  useEffect(() => form.reset(initial), [initial, form]);
  const [subject, template] = useWatch({ control: form.control, name: ['subject', 'template'] });

  if (templates.isPending) return <Skeleton height={480} />;
  if (templates.isError) return <QueryError error={templates.error} onRetry={() => void templates.refetch()} />;
  return (
    <Stack gap={0}>
      <PageHeader
        title={event}
        description={t(`events.${event}`)}
        actions={
          <Badge size="lg" color={stored ? 'portcullis' : 'gray'} variant={stored ? 'light' : 'outline'} tt="none">
            {stored ? t('status.custom') : t('status.builtIn')}
          </Badge>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <TemplateEditor event={event} form={form} stored={stored} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <TemplatePreview event={event} subject={subject} template={template} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export function EmailTemplatePage() {
  const { t } = useTranslation('emailTemplates');
  const { event = '' } = useParams();
  return (
    <Stack gap="lg">
      <BackLink to="/email-templates" label={t('back')} />
      {isEmailEvent(event) ? <Editor event={event} /> : <Alert color="red">{t('unknownEvent', { event })}</Alert>}
    </Stack>
  );
}
