/**
 * Social sign-in on every database kind (SQLite, PostgreSQL, MariaDB): the login state and identity-link
 * tables, a first sign-in that creates the account and a second that finds it by its link, the single use
 * of a state, and a state that has outlived its ten minutes (login-state.ts) on the test clock.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { restClient } from '../support/rest-client.ts';
import { startOauth2Upstream, type Oauth2Upstream } from '../support/social-oauth2-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { TestClock } from '../support/test-clock.ts';

const APP = 'https://app.example.com/callback';

for (const kind of testDatabaseKinds()) {
  describe(`social sign-in on ${kind}`, () => {
    let db: TestDatabase;
    let upstream: Oauth2Upstream;
    let server: TestServer;
    const clock = new TestClock();
    const loginUrl = () => `${server.baseUrl}/oauth_login/github?${new URLSearchParams({ redirectURL: APP, state: 'db-state' })}`;

    before(async () => {
      db = await createTestDatabase(kind);
      upstream = await startOauth2Upstream({ redirectUri: 'http://127.0.0.1:8080/oauth_callback/github' });
      server = await startServer([...db.flags, '--allowed-origins', '*,https://app.example.com', ...upstream.flags()], { clock });
      upstream.accounts.set('dbuser', { id: 9001, login: 'dbuser', email: 'dbuser@example.com', verified: true });
    });
    after(async () => {
      await server?.close();
      await upstream?.close();
      await db?.cleanup();
    });

    test('first and second sign-in reach the same account; a used state is refused', async () => {
      upstream.signInAs('dbuser');
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const browser = new TestBrowser(server.baseUrl, [upstream.baseUrl]);
        const landing = await browser.navigate(loginUrl());
        assert.equal(landing.location, `${APP}?state=db-state`, landing.body);
        const session = await restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });
        assert.equal(session.status, 200, JSON.stringify(session.body));
        ids.push(session.body.user.id);
        const replay = await browser.request(landing.hops.find((h) => h.url.includes('/oauth_callback/'))!.url);
        assert.equal(replay.status, 400);
      }
      assert.equal(ids[0], ids[1]);
    });

    test('a state older than ten minutes is refused with a page', async () => {
      upstream.signInAs('dbuser');
      const browser = new TestBrowser(server.baseUrl, [upstream.baseUrl]);
      const started = await browser.request(loginUrl());
      const upstreamHop = await browser.request(started.location!);
      clock.advance(601);
      const late = await browser.request(upstreamHop.location!);
      assert.equal(late.status, 400);
      assert.equal(late.location, undefined);
      assert.match(late.body!, /expired/);
    });
  });
}
