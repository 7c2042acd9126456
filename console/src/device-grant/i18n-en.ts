/** Text of the client page's device grant card (namespace "deviceGrant" of the console's catalogue). */
export const deviceGrantEn = {
  title: 'Device sign-in',
  label: 'Allow the device authorization grant',
  hint: 'For TVs, consoles and command-line tools without a handy browser (RFC 8628): the device shows a code, and the person types it at /app/device after signing in there. Off unless this application needs it.',
  enabled: 'Device sign-in allowed for this client',
  disabled: 'Device sign-in turned off for this client',
};
