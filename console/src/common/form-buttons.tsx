import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The end of an edit form: a reset to the saved values and the submit button, both idle until something
 * changed. Without `onReset` (a record not created yet) there is nothing to reset and the form may be
 * submitted as it is.
 */
export function FormButtons({ dirty, saving, saveLabel, onReset, resetLabel }: {
  dirty: boolean;
  saving: boolean;
  saveLabel: string;
  onReset?: () => void;
  /** Defaults to the common "Reset". */
  resetLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      {onReset && (
        <Button variant="default" disabled={!dirty || saving} onClick={onReset}>
          {resetLabel ?? t('common.reset')}
        </Button>
      )}
      <Button type="submit" loading={saving} disabled={Boolean(onReset) && !dirty}>
        {saveLabel}
      </Button>
    </Group>
  );
}

/** The end of a dialog's form: cancel (closes the dialog) and the submit button, busy while it runs. */
export function DialogButtons({ onCancel, submitLabel, submitting }: { onCancel: () => void; submitLabel: string; submitting: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt="sm">
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
