/**
 * Stored email templates (docs/api-overview.md#resources-and-fields, "EmailTemplate", "Email template events") on every database kind: a
 * saved template is used for a real mail through the SMTP sink, a hostile user name is HTML-escaped in it,
 * broken templates are refused when saved (invalid_argument) and leave nothing stored, one template per
 * event (already_exists), an update is used at once, and a delete brings the built-in template back.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { restClient } from '../support/rest-client.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

const HOSTILE = '<img src=x onerror=alert`1`>"&\'';
const TEMPLATE = '<p>Hello {{user.given_name}} of {{.organization.name}}</p><p><a href="{{verification_url}}">confirm</a></p><!-- CUSTOM-MARKER -->';

for (const kind of testDatabaseKinds()) {
  describe(`stored email templates on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let smtp: SmtpSink;
    let n = 0;
    const admin = (op: string, body: Record<string, unknown>) => restClient(server).post(`/v1/admin/${op}`, body, ADMIN);

    /** Signs a new user up and answers the verification mail they get. */
    async function signupMail(givenName: string) {
      const email = `user${++n}-${kind}@example.com`;
      const res = await restClient(server).post('/v1/signup', { email, password: 'Correct-Horse-9-battery', confirm_password: 'Correct-Horse-9-battery', given_name: givenName });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await server.app.outbox.idle();
      return smtp.waitFor((m) => m.envelope.to.includes(email), 15_000);
    }

    before(async () => {
      db = await createTestDatabase(kind);
      smtp = await startSmtpSink();
      server = await startServer([...db.flags, ...smtp.flags(), '--enable-email-verification', '--organization-name', 'Acme & Co']);
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
      await db?.cleanup();
    });

    test('broken templates are refused when saved, and nothing is stored', async () => {
      const refused: Array<[string, Record<string, unknown>]> = [
        ['unknown event', { event_name: 'password_changed', subject: 's', template: '{{verification_url}}' }],
        ['unknown placeholder', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} {{user.password}}' }],
        ['unknown placeholder in the subject', { event_name: 'basic_auth_signup', subject: 'Hi {{env.SECRET}}', template: '{{verification_url}}' }],
        ['mustache triple (unescaped)', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} {{{user.given_name}}}' }],
        ['syntax error', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} {{user.given_name | upper}}' }],
        ['unclosed section', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} {{#user.given_name}}hi' }],
        ['nested section', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} {{#user.email}}{{#user.given_name}}x{{/user.given_name}}{{/user.email}}' }],
        ['stray braces', { event_name: 'basic_auth_signup', subject: 's', template: '{{verification_url}} }} {{' }],
        ['no link', { event_name: 'forgot_password', subject: 's', template: '<p>Reset your password</p>' }],
        ['link only inside an optional section', { event_name: 'magic_link_login', subject: 's', template: '{{#organization.logo}}<a href="{{verification_url}}">x</a>{{/organization.logo}}' }],
        ['no code', { event_name: 'verify_otp', subject: 's', template: '<p>{{verification_url}}</p>' }],
      ];
      for (const [why, body] of refused) {
        const res = await admin('add_email_template', body);
        assert.equal(res.status, 400, `${why}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'invalid_argument', why);
      }
      const preview = await admin('preview_email_template', { event_name: 'forgot_password', subject: 's', template: 'no link' });
      assert.equal(preview.body.code, 'invalid_argument', 'preview applies the checks of a save');
      assert.equal((await admin('email_templates', {})).body.pagination.total, 0);
    });

    test('a saved template is used for the real mail, with the user name escaped', async () => {
      const added = await admin('add_email_template', { event_name: 'basic_auth_signup', subject: 'Welcome {{user.given_name}} to {{organization.name}}', template: TEMPLATE, design: '{"rows":[]}' });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const again = await admin('add_email_template', { event_name: 'basic_auth_signup', subject: 'x', template: '{{verification_url}}' });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'already_exists');

      const mail = await signupMail(HOSTILE);
      assert.match(mail.html!, /CUSTOM-MARKER/);
      assert.ok(mail.html!.includes('Hello &lt;img src=x onerror=alert`1`&gt;&quot;&amp;&#39; of Acme &amp; Co'), mail.html);
      assert.ok(!mail.html!.includes('<img'), 'the name never becomes markup');
      assert.match(mail.html!, /href="http[^"]+\/verify_email\?token=[^"]+"/);
      // The subject is a header, not HTML: the name is kept as text, on one line. (Spaces are ignored: the sink
      // joins the RFC 2047 encoded words of a folded header with one, where RFC 2047 section 6.2 drops it.)
      const squeezed = (text: string) => text.replace(/\s+/g, '');
      assert.equal(squeezed(mail.subject!), squeezed(`Welcome ${HOSTILE} to Acme & Co`));

      const listed = (await admin('email_templates', { pagination: { limit: 10 } })).body;
      assert.equal(listed.pagination.total, 1);
      const [row] = listed.email_templates;
      assert.equal(row.event_name, 'basic_auth_signup');
      assert.equal(row.template, TEMPLATE);
      assert.equal(row.design, '{"rows":[]}');
      assert.ok(row.created_at > 0 && row.updated_at >= row.created_at);
    });

    test('an update is used at once and keeps what it omits; a delete restores the built-in template', async () => {
      const [row] = (await admin('email_templates', {})).body.email_templates;
      const updated = await admin('update_email_template', { id: row.id, subject: 'Updated {{user.given_name}}' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const after = (await admin('email_templates', {})).body.email_templates[0];
      assert.equal(after.template, TEMPLATE);
      assert.equal(after.design, '{"rows":[]}');
      assert.equal((await signupMail('Ann')).subject, 'Updated Ann');

      const refused = await admin('update_email_template', { id: row.id, event_name: 'verify_otp' });
      assert.equal(refused.body.code, 'invalid_argument', 'a changed event re-checks the stored text (verify_otp needs {{otp}})');
      assert.equal((await admin('update_email_template', { id: 'nope', subject: 'x' })).status, 404);

      assert.equal((await admin('delete_email_template', { id: row.id })).status, 200);
      assert.equal((await admin('delete_email_template', { id: row.id })).status, 404);
      const builtIn = await signupMail('Bob');
      assert.equal(builtIn.subject, 'Verify your email address for Acme & Co');
      assert.doesNotMatch(builtIn.html!, /CUSTOM-MARKER/);
    });

    test('preview renders a draft with sample values and the same escaping, storing nothing', async () => {
      const res = await admin('preview_email_template', { event_name: 'verify_otp', subject: 'Code for {{user.given_name}}', template: '<b>{{otp}}</b> {{organization.name}}' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.subject, 'Code for Jane');
      assert.equal(res.body.html, '<b>123456</b> Acme &amp; Co');
      assert.equal((await admin('email_templates', {})).body.pagination.total, 0);
      const anonymous = await restClient(server).post('/v1/admin/preview_email_template', { event_name: 'verify_otp', subject: 's', template: '{{otp}}' });
      assert.equal(anonymous.status, 401);
    });
  });
}
