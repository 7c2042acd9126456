import { Controller, type Control, type FieldPathByValue, type FieldValues, type Validate } from 'react-hook-form';
import { TagsInput } from '@mantine/core';

/**
 * A list-of-words field of a react-hook-form form (scopes, email domains), as a Mantine tags input: a space
 * or a comma ends a word, and a failed check shows under the field.
 */
export function TagsField<Values extends FieldValues>({ control, name, label, description, placeholder, validate }: {
  control: Control<Values>;
  name: FieldPathByValue<Values, string[]>;
  label: string;
  description: string;
  placeholder?: string;
  validate?: Validate<string[], Values>;
}) {
  return (
    <Controller
      control={control}
      name={name}
      rules={{ validate }}
      render={({ field, fieldState }) => (
        <TagsInput
          label={label}
          description={description}
          placeholder={placeholder}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          splitChars={[' ', ',']}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
