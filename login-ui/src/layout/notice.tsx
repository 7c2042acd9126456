/** A confirmation from the server (a link or code was sent), with its message in the server's words. */
import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';

export function Notice({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Alert color="teal" variant="light" title={title} icon={<IconCircleCheck size={18} />} role="status">
      {children}
    </Alert>
  );
}
