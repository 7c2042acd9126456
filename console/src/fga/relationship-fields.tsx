/**
 * The three fields every FGA form asks for (user, relation, and an object or an object type), side by side on
 * a wide screen and stacked on a phone, with the server's own bounds on each value.
 */
import { Grid, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** The server's own bound on a subject or object (fga.schema.ts: 1 to 512 characters). */
export const MAX_ID_LENGTH = 512;

/** react-hook-form rules for one of the fields: present, and within the server's bound. */
export function idRules(t: TFunction<'fga'>) {
  return { required: t('tuples.required'), maxLength: { value: MAX_ID_LENGTH, message: t('tuples.tooLong', { max: MAX_ID_LENGTH }) } };
}

export interface RelationshipField {
  label: string;
  placeholder: string;
  description?: string;
  error?: string;
  input: UseFormRegisterReturn;
}

const SPANS = [4, 3, 5] as const;

export function RelationshipFields({ fields }: { fields: readonly [RelationshipField, RelationshipField, RelationshipField] }) {
  return (
    <Grid gap="sm" align="flex-start">
      {fields.map((field, index) => (
        <Grid.Col key={field.input.name} span={{ base: 12, sm: SPANS[index] }}>
          <TextInput label={field.label} placeholder={field.placeholder} description={field.description} error={field.error} {...field.input} />
        </Grid.Col>
      ))}
    </Grid>
  );
}
