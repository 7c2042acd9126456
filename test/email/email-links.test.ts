/** Emailed links come from --url (and --reset-password-url) only, carrying the caller's redirect_uri. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { emailLinkFor, resetPasswordLink, verifyEmailLink } from '../../server/modules/email/index.ts';
import { configWith } from './config.ts';

describe('email links', () => {
  test('verification links sit under --url and carry token and redirect_uri', () => {
    const config = configWith(['--url', 'https://id.example.com/auth/']);
    const link = new URL(verifyEmailLink(config, { token: 'tok-en_1', redirectUri: 'https://app.example.com/done?x=1&y=2' }));
    assert.equal(link.origin + link.pathname, 'https://id.example.com/auth/verify_email');
    assert.equal(link.searchParams.get('token'), 'tok-en_1');
    assert.equal(link.searchParams.get('redirect_uri'), 'https://app.example.com/done?x=1&y=2');
  });

  test('without a redirect_uri the link has none', () => {
    const link = new URL(verifyEmailLink(configWith([]), { token: 't' }));
    assert.equal(link.searchParams.has('redirect_uri'), false);
    assert.equal(link.toString(), 'http://127.0.0.1:8080/verify_email?token=t');
  });

  test('the reset link goes to the built-in page unless --reset-password-url is set', () => {
    const builtIn = new URL(resetPasswordLink(configWith(['--url', 'https://id.example.com']), { token: 't', redirectUri: 'https://app/x' }));
    assert.equal(builtIn.origin + builtIn.pathname, 'https://id.example.com/app/reset-password');
    assert.equal(builtIn.searchParams.get('redirect_uri'), 'https://app/x');

    const custom = new URL(
      resetPasswordLink(configWith(['--reset-password-url', 'https://app.example.com/reset?lang=en']), { token: 't', redirectUri: 'https://app/x' }),
    );
    assert.equal(custom.origin + custom.pathname, 'https://app.example.com/reset');
    assert.equal(custom.searchParams.get('lang'), 'en');
    assert.equal(custom.searchParams.get('token'), 't');
    assert.equal(custom.searchParams.get('redirect_uri'), 'https://app/x');
  });

  test('each event gets its kind of link', () => {
    const config = configWith(['--url', 'https://id.example.com']);
    for (const event of ['basic_auth_signup', 'magic_link_login', 'update_email', 'invite_member'] as const) {
      assert.ok(emailLinkFor(config, event, { token: 't' }).startsWith('https://id.example.com/verify_email?'), event);
    }
    assert.ok(emailLinkFor(config, 'forgot_password', { token: 't' }).startsWith('https://id.example.com/app/reset-password?'));
  });
});
