/** An HTTP status as a badge: 2xx delivered (teal), anything else failed (red); 0 is no answer at all. */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function isDelivered(status: number): boolean {
  return status >= 200 && status < 300;
}

export function HttpStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('webhooks');
  return (
    <Badge color={isDelivered(status) ? 'teal' : 'red'} variant="light" tt="none">
      {status === 0 ? t('logs.noAnswer') : String(status)}
    </Badge>
  );
}
