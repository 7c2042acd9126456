/**
 * The login UI's round trip for the authorization endpoint and social sign-in (login-ui/src/round-trip,
 * login-ui/src/social): /authorize sends a browser without a session to /app?redirect_uri=<its resume URL>
 * with no state of its own, so nothing may add one (RFC 6749 section 3.1: no parameter twice), the notice
 * names the client's host, and a social sign-in started there comes back through the login page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';

const ORIGIN = 'https://id.example.com';
// The modules read window.location once at load (the URL the server vetted); this is that page's URL.
Object.assign(globalThis, { window: { location: { search: '', origin: ORIGIN } } });
const { emailedReturnUri, readRoundTrip, returnHost, returnUrl } = await import('../../login-ui/src/round-trip/round-trip.ts');
const { enabledProviders, socialLoginHref, socialReturn } = await import('../../login-ui/src/social/social-providers.ts');

const resume = `${ORIGIN}/authorize?client_id=c1&redirect_uri=${encodeURIComponent('https://rp.example.org/cb')}&response_type=code&state=rp-state&code_challenge=abc&code_challenge_method=S256`;
const fromAuthorize = readRoundTrip(`?redirect_uri=${encodeURIComponent(resume)}`);

test('the /authorize resume URL is followed exactly as given: no state added, none replaced', () => {
  assert.equal(fromAuthorize.state, undefined);
  assert.equal(returnUrl(fromAuthorize), new URL(resume).toString());
  assert.deepEqual(new URL(returnUrl(fromAuthorize)!).searchParams.getAll('state'), ['rp-state']);
});

test('an emailed link of a sign-up started from /authorize comes back to the login page with the resume URL and no state', () => {
  const link = new URL(emailedReturnUri(fromAuthorize, ORIGIN)!);
  assert.equal(`${link.origin}${link.pathname}`, `${ORIGIN}/app`);
  assert.equal(link.searchParams.get('redirect_uri'), resume);
  assert.equal(link.searchParams.has('state'), false);
});

test('the notice names the client\'s host for an own /authorize URL, and the plain host otherwise', () => {
  assert.equal(returnHost(fromAuthorize, ORIGIN), 'rp.example.org');
  assert.equal(returnHost(readRoundTrip('?redirect_uri=https%3A%2F%2Fapp.example.net%2Fdone&state=s'), ORIGIN), 'app.example.net');
  // Another origin's /authorize is just that host: only this server's endpoint vets its inner redirect_uri.
  const foreign = `https://other.example/authorize?redirect_uri=${encodeURIComponent('https://rp.example.org/cb')}`;
  assert.equal(returnHost(readRoundTrip(`?redirect_uri=${encodeURIComponent(foreign)}`), ORIGIN), 'other.example');
  // An inner javascript: address is never named.
  const sneaky = `${ORIGIN}/authorize?redirect_uri=${encodeURIComponent('javascript:alert(1)')}`;
  assert.equal(returnHost(readRoundTrip(`?redirect_uri=${encodeURIComponent(sneaky)}`), ORIGIN), 'id.example.com');
  assert.equal(returnHost(readRoundTrip(''), ORIGIN), undefined);
});

test('social sign-in from /authorize returns through the login page with the client\'s own state', () => {
  const back = socialReturn(fromAuthorize, ORIGIN);
  assert.equal(back.state, 'rp-state');
  const landing = new URL(back.redirectUri);
  assert.equal(`${landing.origin}${landing.pathname}`, `${ORIGIN}/app`);
  assert.equal(landing.searchParams.get('redirect_uri'), resume);
  // What the login page then does with the state /oauth_login appends: the resume URL, unchanged.
  landing.searchParams.set('state', back.state);
  assert.equal(returnUrl(readRoundTrip(landing.search)), new URL(resume).toString());
});

test('social sign-in of an application round trip goes straight back with its state; without one, to the login page', () => {
  const app = readRoundTrip('?redirect_uri=https%3A%2F%2Fapp.example.net%2Fdone&state=app-state');
  assert.deepEqual(socialReturn(app, ORIGIN), { redirectUri: 'https://app.example.net/done', state: 'app-state' });
  const alone = socialReturn(readRoundTrip(''), ORIGIN);
  assert.equal(alone.redirectUri, `${ORIGIN}/app`);
  assert.match(alone.state, /^[0-9a-f]{32}$/);
  assert.notEqual(socialReturn(readRoundTrip(''), ORIGIN).state, alone.state);
  const href = new URL(socialLoginHref('github', app, ORIGIN), ORIGIN);
  assert.equal(href.pathname, '/oauth_login/github');
  assert.equal(href.searchParams.get('redirect_uri'), 'https://app.example.net/done');
  assert.equal(href.searchParams.get('state'), 'app-state');
});

test('only the providers the server switched on get a button, in the catalogue order', () => {
  const flags = {
    is_google_login_enabled: false, is_github_login_enabled: true, is_microsoft_login_enabled: false, is_apple_login_enabled: false,
    is_facebook_login_enabled: false, is_linkedin_login_enabled: false, is_discord_login_enabled: true, is_twitter_login_enabled: false,
    is_twitch_login_enabled: false, is_roblox_login_enabled: false,
  };
  assert.deepEqual(enabledProviders(flags), ['github', 'discord']);
});
