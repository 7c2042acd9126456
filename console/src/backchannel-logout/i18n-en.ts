/** Text of the client page's back-channel logout card (namespace "backchannel" of the console's catalogue). */
export const backchannelEn = {
  title: 'Back-channel logout',
  uri: 'Back-channel logout URI',
  uriHint: 'When a person\'s session ends here, this application is POSTed a signed logout token (OpenID Connect Back-Channel Logout 1.0) if it got tokens in that session. https only (http to localhost for development). Leave empty for none.',
  sessionRequired: 'The application needs the session id (sid) in the logout token',
  save: 'Save',
  saved: 'Back-channel logout URI saved',
  removed: 'Back-channel logout turned off for this client',
};
