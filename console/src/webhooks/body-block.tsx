/**
 * A request or response body as text: pretty-printed when it is JSON, verbatim otherwise. It is only ever
 * rendered as text (a React string child), never as HTML, whatever the receiver answered.
 */
import { Code, ScrollArea, Text } from '@mantine/core';

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function BodyBlock({ label, body, empty }: { label: string; body: string; empty: string }) {
  return (
    <div>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      {body ? (
        <ScrollArea.Autosize mah={280} type="auto">
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {pretty(body)}
          </Code>
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
    </div>
  );
}
