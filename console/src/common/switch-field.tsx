import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Switch } from '@mantine/core';

/** An on/off field of a react-hook-form form, as a Mantine switch with its label and the line that explains it. */
export function SwitchField<Values extends FieldValues>({ control, name, label, description }: {
  control: Control<Values>;
  name: FieldPathByValue<Values, boolean>;
  label: string;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          label={label}
          description={description}
          checked={field.value}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
