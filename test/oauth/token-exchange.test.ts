/**
 * OAuth 2.0 Token Exchange (RFC 8693) at /oauth/token, with openid-client 6 as the exchanging client
 * (genericGrantRequest): an agent the administrator allowed exchanges a user's access token, with its own
 * client_credentials token as actor, for a narrower token for an allowed audience that carries
 * `act: {sub: <agent>}` (section 4.1), nested when a second agent exchanges again. The token lives on the
 * user's session (logout ends it), never past the subject token, and the FGA agent rule reads its `act`.
 * Refusals: a widened scope, a revoked or foreign subject token, an audience or resource not allowed, a client
 * without the switch, actor tokens that are not the client's own.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as client from 'openid-client';
import { SignJWT, decodeJwt } from 'jose';
import { CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { registerClient, signUpAndLogIn, startOidcServer, type SignedIn } from '../support/oidc-server.ts';
import { basicAuth, tokenRequest } from './authorize-support.ts';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const CALENDAR = 'https://calendar.example.com/';

const AGENT_MODEL = `model
  schema 1.1
type user
type agent
type document
  relations
    define viewer: [user, agent]
`;

interface Agent {
  clientId: string;
  secret: string;
  rp: client.Configuration;
}

describe('token exchange (RFC 8693)', () => {
  let server: TestServer;
  let alice: SignedIn;
  let agentA: Agent;
  let agentB: Agent;
  let plain: Agent;
  const clock = new TestClock();

  async function agent(name: string, exchange: { audiences: string[] } | undefined): Promise<Agent> {
    const registered = await registerClient(server, { name, allowed_scopes: ['openid', 'email', 'profile', 'agent:run'], allowed_resources: [CALENDAR] });
    if (exchange) {
      const answer = await adminClient(server).ok('set_client_token_exchange', { client_id: registered.clientId, enabled: true, audiences: exchange.audiences });
      assert.deepEqual(answer, { client_id: registered.clientId, enabled: true, audiences: exchange.audiences });
    }
    const rp = await client.discovery(new URL(server.baseUrl), registered.clientId, undefined, client.ClientSecretBasic(registered.secret), {
      execute: [client.allowInsecureRequests],
    });
    return { clientId: registered.clientId, secret: registered.secret, rp };
  }

  /** The agent's own token: client_credentials, the actor_token it presents. */
  async function actorTokenOf(who: Agent): Promise<string> {
    return (await client.clientCredentialsGrant(who.rp, { scope: 'agent:run' })).access_token;
  }

  function exchange(who: Agent, subjectToken: string, fields: Record<string, string> = {}) {
    return client.genericGrantRequest(who.rp, TOKEN_EXCHANGE, { subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, ...fields });
  }

  /** The same request over plain HTTP, for the refusals' exact RFC 6749 section 5.2 bodies. */
  async function refusal(who: Agent, fields: Record<string, string>): Promise<{ status: number; error: string; description: string }> {
    const answer = await tokenRequest(server, { grant_type: TOKEN_EXCHANGE, subject_token_type: ACCESS_TOKEN_TYPE, ...fields }, basicAuth(who.clientId, who.secret));
    return { status: answer.status, error: answer.body.error, description: answer.body.error_description };
  }

  /** POST /v1/validate_jwt_token as a resource server calls it; the answer's status and body. */
  async function validate(token: string, requiredRelations?: { relation: string; object: string }[]) {
    const res = await fetch(`${server.baseUrl}/v1/validate_jwt_token`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ token_type: 'access_token', token, ...(requiredRelations ? { required_relations: requiredRelations } : {}) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  async function tokenIsValid(token: string): Promise<boolean> {
    const answer = await validate(token);
    return answer.status === 200 && answer.body.is_valid === true;
  }

  before(async () => {
    server = await startOidcServer([], { clock });
    agentA = await agent('Agent A', { audiences: ['calendar-api', CALENDAR] });
    agentB = await agent('Agent B', { audiences: ['mail-api'] });
    plain = await agent('Not allowed', undefined);
    alice = await signUpAndLogIn(server);
  });
  after(() => server?.close());

  test('discovery lists the grant; the switch reads back and is off by default', async () => {
    assert.ok((agentA.rp.serverMetadata().grant_types_supported ?? []).includes(TOKEN_EXCHANGE));
    const admin = adminClient(server);
    assert.deepEqual(await admin.ok('client_token_exchange', { client_id: plain.clientId }), { client_id: plain.clientId, enabled: false, audiences: [] });
    assert.deepEqual(await admin.ok('client_token_exchange', { client_id: agentA.clientId }), { client_id: agentA.clientId, enabled: true, audiences: ['calendar-api', CALENDAR] });
  });

  test('an agent exchanges the user token with its own token as actor: act, audience, narrower scope, no refresh token', async () => {
    const subject = decodeJwt(alice.tokens.access_token);
    const issued = await exchange(agentA, alice.tokens.access_token, {
      actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE, audience: 'calendar-api', scope: 'openid',
    });
    assert.equal(issued.token_type.toLowerCase(), 'bearer');
    assert.equal(issued.issued_token_type, ACCESS_TOKEN_TYPE);
    assert.equal(issued.scope, 'openid');
    assert.equal(issued.refresh_token, undefined);
    const claims = decodeJwt(issued.access_token);
    assert.equal(claims.sub, alice.userId);
    assert.deepEqual(claims.act, { sub: agentA.clientId });
    assert.deepEqual(claims.aud, ['calendar-api', agentA.clientId]);
    assert.equal(claims.azp, agentA.clientId);
    assert.deepEqual(claims.scope, ['openid']);
    assert.ok(Number(claims.exp) <= Number(subject.exp), 'never past the subject token');
    assert.equal(await tokenIsValid(issued.access_token), true, 'validate_jwt_token accepts it');
    // The exchanging client introspects it (RFC 7662 section 2.2) and sees who acts (RFC 8693 section 4.1).
    const introspected = await client.tokenIntrospection(agentA.rp, issued.access_token);
    assert.equal(introspected.active, true);
    assert.equal(introspected.sub, alice.userId);
    assert.deepEqual(introspected.act, { sub: agentA.clientId });
  });

  test('a resource allowed to the client names the resource server in aud (RFC 8707 rules)', async () => {
    const issued = await exchange(agentA, alice.tokens.access_token, { resource: CALENDAR });
    assert.deepEqual(decodeJwt(issued.access_token).aud, [CALENDAR, agentA.clientId]);
    assert.equal(decodeJwt(issued.access_token).act, undefined, 'no actor token, no act: nobody else acts');
  });

  test('a second agent exchanging the first one\'s token nests the chain; exchanging again without an actor keeps it', async () => {
    const first = await exchange(agentA, alice.tokens.access_token, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE });
    const second = await exchange(agentB, first.access_token, {
      actor_token: await actorTokenOf(agentB), actor_token_type: ACCESS_TOKEN_TYPE, audience: 'mail-api',
    });
    const claims = decodeJwt(second.access_token);
    assert.equal(claims.sub, alice.userId);
    assert.deepEqual(claims.act, { sub: agentB.clientId, act: { sub: agentA.clientId } });
    const laundered = await exchange(agentB, first.access_token);
    assert.deepEqual(decodeJwt(laundered.access_token).act, { sub: agentA.clientId }, 'the chain is not dropped by leaving the actor out');
  });

  test('expires_in is at most the subject token\'s remaining life', async () => {
    const bob = await signUpAndLogIn(server);
    clock.advance(20 * 60);
    const issued = await exchange(agentA, bob.tokens.access_token);
    const remaining = Number(decodeJwt(bob.tokens.access_token).exp) - Math.floor(clock.now().getTime() / 1000);
    assert.ok(issued.expires_in! <= remaining && issued.expires_in! > 0, `${issued.expires_in} <= ${remaining}`);
    assert.equal(decodeJwt(issued.access_token).exp, decodeJwt(bob.tokens.access_token).exp);
  });

  test('the FGA agent rule sees the act chain: validate_jwt_token required_relations needs the current agent too', async () => {
    const admin = adminClient(server);
    // `over` expects success (three-protocols.ts).
    await admin.over('rest', 'fga_write_model', { dsl: AGENT_MODEL });
    await admin.over('rest', 'fga_write_tuples', { tuples: [
      { user: `user:${alice.userId}`, relation: 'viewer', object: 'document:both' },
      { user: `user:${alice.userId}`, relation: 'viewer', object: 'document:user-only' },
      { user: `agent:${agentA.clientId}`, relation: 'viewer', object: 'document:both' },
    ] });
    const issued = await exchange(agentA, alice.tokens.access_token, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE });
    const viewer = (object: string) => [{ relation: 'viewer', object }];
    const both = await validate(issued.access_token, viewer('document:both'));
    assert.equal(both.status, 200, JSON.stringify(both.body));
    assert.deepEqual(both.body.claims.act, { sub: agentA.clientId });
    const userOnly = await validate(issued.access_token, viewer('document:user-only'));
    assert.equal(userOnly.status, 403, 'the user holds it, the agent does not');
    assert.match(userOnly.body.message, /viewer on document:user-only/);
    // The user's own token, with no act, passes where the user passes.
    assert.equal((await validate(alice.tokens.access_token, viewer('document:user-only'))).status, 200);

    // A chain A then B: only the current actor (B) counts; prior actors are informational (RFC 8693 section 4.1).
    await admin.over('rest', 'fga_write_tuples', { tuples: [
      { user: `user:${alice.userId}`, relation: 'viewer', object: 'document:b-only' },
      { user: `agent:${agentB.clientId}`, relation: 'viewer', object: 'document:b-only' },
    ] });
    const chained = await exchange(agentB, issued.access_token, { actor_token: await actorTokenOf(agentB), actor_token_type: ACCESS_TOKEN_TYPE });
    assert.equal((await validate(chained.access_token, viewer('document:b-only'))).status, 200, 'B holds it, A need not');
    assert.equal((await validate(chained.access_token, viewer('document:both'))).status, 403, 'A holds it, B does not');
    assert.equal((await validate(issued.access_token, viewer('document:b-only'))).status, 403, 'A alone does not');
  });

  test('scope never widens, audiences and resources must be allowed, the switch is required', async () => {
    const subject = alice.tokens.access_token;
    const widened = await refusal(agentA, { subject_token: subject, scope: 'openid agent:run' });
    assert.deepEqual([widened.status, widened.error], [400, 'invalid_scope'], widened.description);
    assert.equal((await refusal(agentA, { subject_token: subject, audience: 'mail-api' })).error, 'invalid_target');
    assert.equal((await refusal(agentA, { subject_token: subject, resource: 'https://elsewhere.example.com/' })).error, 'invalid_target');
    assert.equal((await refusal(agentB, { subject_token: subject, resource: 'https://calendar.example.com/x' })).error, 'invalid_target');
    const off = await refusal(plain, { subject_token: subject });
    assert.deepEqual([off.status, off.error], [400, 'unauthorized_client']);
    // Switched off again: refused again.
    await adminClient(server).ok('set_client_token_exchange', { client_id: agentB.clientId, enabled: false });
    assert.equal((await refusal(agentB, { subject_token: subject })).error, 'unauthorized_client');
    await adminClient(server).ok('set_client_token_exchange', { client_id: agentB.clientId, enabled: true, audiences: ['mail-api'] });
    await assert.rejects(exchange(plain, subject), (err: unknown) => err instanceof client.ResponseBodyError && err.error === 'unauthorized_client');
  });

  test('malformed requests and unacceptable subject tokens are invalid_request', async () => {
    const subject = alice.tokens.access_token;
    assert.equal((await refusal(agentA, {})).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: subject, subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: subject, requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: 'not-a-token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: alice.tokens.id_token })).error, 'invalid_request', 'an ID token is no access token');
    // A client_credentials token names no user: it cannot be a subject.
    assert.equal((await refusal(agentA, { subject_token: await actorTokenOf(agentA) })).error, 'invalid_request');
  });

  test('actor tokens: only the exchanging client\'s own token, never the subject, a user token, another client\'s or another issuer\'s', async () => {
    const subject = alice.tokens.access_token;
    const asActor = (actor: string) => refusal(agentA, { subject_token: subject, actor_token: actor, actor_token_type: ACCESS_TOKEN_TYPE });
    assert.equal((await asActor(subject)).error, 'invalid_request', 'the subject token as its own actor');
    const carol = await signUpAndLogIn(server);
    assert.equal((await asActor(carol.tokens.access_token)).error, 'invalid_request', 'a user token is no actor');
    assert.equal((await asActor(await actorTokenOf(agentB))).error, 'invalid_request', 'another client\'s token');
    const foreignKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const now = Math.floor(clock.now().getTime() / 1000);
    const foreign = await new SignJWT({ client_id: agentA.clientId, azp: agentA.clientId, token_type: 'access_token' })
      .setProtectedHeader({ alg: 'ES256' }).setIssuer('https://other-issuer.example.com').setSubject(agentA.clientId)
      .setAudience(agentA.clientId).setIssuedAt(now).setExpirationTime(now + 600).sign(foreignKey);
    assert.equal((await asActor(foreign)).error, 'invalid_request', 'another issuer\'s token');
    assert.equal((await refusal(agentA, { subject_token: subject, actor_token: await actorTokenOf(agentA) })).error, 'invalid_request', 'actor_token_type is required');
    assert.equal((await refusal(agentA, { subject_token: subject, actor_token_type: ACCESS_TOKEN_TYPE })).error, 'invalid_request', 'a type without a token');
  });

  test('signing out ends the exchanged tokens, and the revoked subject token can no longer be exchanged', async () => {
    const dave = await signUpAndLogIn(server);
    const issued = await exchange(agentA, dave.tokens.access_token, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE });
    const chained = await exchange(agentB, issued.access_token);
    assert.equal(await tokenIsValid(issued.access_token), true);
    const logout = await fetch(`${server.baseUrl}/v1/logout`, { method: 'POST', headers: { cookie: dave.cookie, origin: server.baseUrl, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(logout.status, 200);
    assert.equal(await tokenIsValid(issued.access_token), false, 'the exchanged token ends with the session');
    assert.equal(await tokenIsValid(chained.access_token), false, 'and so does the one exchanged from it');
    const again = await refusal(agentA, { subject_token: dave.tokens.access_token });
    assert.equal(again.error, 'invalid_request');
    assert.match(again.description, /revoked/);
  });

  test('a subject token revoked alone (RFC 7009) can no longer be exchanged', async () => {
    const erin = await signUpAndLogIn(server);
    assert.equal((await exchange(agentA, erin.tokens.access_token)).token_type.toLowerCase(), 'bearer');
    const revoked = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(CLIENT_ID, CLIENT_SECRET) },
      body: new URLSearchParams({ token: erin.tokens.access_token, token_type_hint: 'access_token' }).toString(),
    });
    assert.equal(revoked.status, 200);
    const refused = await refusal(agentA, { subject_token: erin.tokens.access_token });
    assert.equal(refused.error, 'invalid_request');
    assert.match(refused.description, /revoked/);
  });
});
