/** The login UI's text catalogue (English); other languages are sibling files with the same keys. */
export const en = {
  login: {
    title: 'Sign in to {{organization}}',
  },
};
