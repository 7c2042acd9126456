/** Shown until the session is known (no flash of the signed-out screens) and while leaving for the application. */
import { Center, Loader, Stack, Text } from '@mantine/core';

export function FullPageLoader({ label }: { label: string }) {
  return (
    <Center mih="100dvh" bg="gray.0" component="main">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="md" aria-hidden />
        <Text c="dimmed" fz="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
