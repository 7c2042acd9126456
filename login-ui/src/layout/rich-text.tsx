/**
 * A catalogue sentence with the person's own address or number in bold. The sentence is translated with a
 * marker in the value's place and split there, so the value is always inserted as text, never parsed as
 * markup, and translators keep a plain `{{email}}` placeholder they can move anywhere.
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';

const MARK = '\u2063'; // INVISIBLE SEPARATOR: never part of a catalogue sentence

export function RichText({ i18nKey, name, value, values }: { i18nKey: string; name: string; value: string; values?: Record<string, string> }) {
  const { t } = useTranslation();
  const parts = t(i18nKey, { ...values, [name]: MARK }).split(MARK);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <strong style={{ fontWeight: 600 }}>{value}</strong> : null}
        </Fragment>
      ))}
    </>
  );
}
