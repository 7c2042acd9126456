/** The console's text catalogue (English); other languages are sibling files with the same keys. */
export const en = {
  console: {
    title: '{{organization}} console',
  },
};
