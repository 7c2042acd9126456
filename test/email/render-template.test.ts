/** Placeholder rendering of email templates (docs/events.md: user, organization, verification_url, otp). */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderSubject, renderTemplate } from '../../server/modules/email/index.ts';

const context = {
  user: { given_name: '<b>Ann</b> & "Co"', email: 'ann@example.com', roles: ['user'] },
  organization: { name: 'Acme', logo: '' },
  verification_url: 'https://id.example.com/verify_email?token=abc&redirect_uri=https%3A%2F%2Fapp',
  otp: '012345',
};

describe('renderTemplate', () => {
  test('escapes placeholder values in HTML and leaves the template markup alone', () => {
    const html = renderTemplate('<p>Hi {{user.given_name}}</p>', context, 'html');
    assert.equal(html, '<p>Hi &lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Co&quot;</p>');
  });

  test('leaves values as they are in the text body', () => {
    assert.equal(renderTemplate('Hi {{user.given_name}}', context, 'none'), 'Hi <b>Ann</b> & "Co"');
  });

  test('accepts the Go-template spelling of the released line and spaces inside braces', () => {
    assert.equal(renderTemplate('{{.organization.name}}|{{ otp }}|{{ .user.email }}', context, 'none'), 'Acme|012345|ann@example.com');
  });

  test('escapes the link inside an href', () => {
    const html = renderTemplate('<a href="{{verification_url}}">go</a>', context, 'html');
    assert.equal(html, '<a href="https://id.example.com/verify_email?token=abc&amp;redirect_uri=https%3A%2F%2Fapp">go</a>');
  });

  test('unknown paths, objects and lists render as nothing', () => {
    assert.equal(renderTemplate('[{{user.missing}}][{{user}}][{{user.roles}}][{{nope.deeper}}]', context, 'none'), '[][][][]');
  });

  test('does not reach inherited properties', () => {
    assert.equal(renderTemplate('[{{user.constructor}}][{{user.toString}}]', context, 'none'), '[][]');
  });

  test('sections show their text only when the value is present', () => {
    const template = '{{#organization.logo}}<img src="{{organization.logo}}">{{/organization.logo}}{{#otp}}code{{/otp}}';
    assert.equal(renderTemplate(template, context, 'html'), 'code');
    const withLogo = { ...context, organization: { name: 'Acme', logo: 'https://cdn.example.com/l.png' } };
    assert.equal(renderTemplate(template, withLogo, 'html'), '<img src="https://cdn.example.com/l.png">code');
  });

  test('a subject is one line: line breaks in values cannot add headers', () => {
    const subject = renderSubject('Welcome {{user.given_name}}', { user: { given_name: 'Eve\r\nBcc: victim@example.com' } });
    assert.equal(subject, 'Welcome Eve Bcc: victim@example.com');
    assert.ok(!/[\r\n]/.test(subject));
  });
});
