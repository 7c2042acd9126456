import { Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** The search box above a list; `busy`: a new answer is on its way (the rows shown are the previous ones). */
export function SearchField({ label, placeholder, value, onChange, busy }: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
}) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      type="search"
      mb="md"
      rightSection={busy ? <Text size="xs" c="dimmed">…</Text> : null}
    />
  );
}
