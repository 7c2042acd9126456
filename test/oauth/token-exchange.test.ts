/**
 * OAuth 2.0 Token Exchange (RFC 8693) at /oauth/token, with openid-client 6 as the exchanging client
 * (genericGrantRequest): an agent the administrator allowed exchanges a user's access token, with its own
 * client_credentials token as actor, for a narrower token for an allowed audience that carries
 * `act: {sub: <agent>}` (section 4.1), nested when a second agent exchanges again. The token lives on the
 * user's session (logout ends it), never past the subject token, and the FGA agent rule reads its `act`.
 * Subject tokens are the user's tokens addressed to the exchanging agent (its aud names the agent: the code flow
 * for it, or an earlier exchange naming it as audience). Refusals: a subject token addressed to another client,
 * a widened scope, a revoked or foreign subject token, an audience or resource not allowed, a client without the
 * switch, actor tokens that are not the client's own.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as client from 'openid-client';
import { SignJWT, decodeJwt } from 'jose';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { registerClient, signUpAndLogIn, startOidcServer, type SignedIn } from '../support/oidc-server.ts';
import { CALLBACK, basicAuth, tokenRequest } from './authorize-support.ts';
import { userTokenFor } from './token-exchange-support.ts';

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
  /** Alice's access token from the code flow for agent A: aud names agent A. */
  let aliceForA: string;
  let agentA: Agent;
  let agentB: Agent;
  let plain: Agent;
  const clock = new TestClock();

  async function allowExchange(who: Agent, audiences: string[]): Promise<void> {
    const answer = await adminClient(server).ok('set_client_token_exchange', { client_id: who.clientId, enabled: true, audiences });
    assert.deepEqual(answer, { client_id: who.clientId, enabled: true, audiences });
  }

  async function agent(name: string): Promise<Agent> {
    const registered = await registerClient(server, {
      name, allowed_scopes: ['openid', 'email', 'profile', 'agent:run'], allowed_resources: [CALENDAR], redirect_uris: [CALLBACK],
    });
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
    agentA = await agent('Agent A');
    agentB = await agent('Agent B');
    plain = await agent('Not allowed');
    // Agent A may name agent B as the audience: that is how a token reaches B to be exchanged again.
    await allowExchange(agentA, ['calendar-api', CALENDAR, agentB.clientId]);
    await allowExchange(agentB, ['mail-api']);
    alice = await signUpAndLogIn(server);
    aliceForA = await userTokenFor(server, alice.cookie, agentA);
  });
  after(() => server?.close());

  test('discovery lists the grant; the switch reads back and is off by default', async () => {
    assert.ok((agentA.rp.serverMetadata().grant_types_supported ?? []).includes(TOKEN_EXCHANGE));
    const admin = adminClient(server);
    assert.deepEqual(await admin.ok('client_token_exchange', { client_id: plain.clientId }), { client_id: plain.clientId, enabled: false, audiences: [] });
    assert.deepEqual(await admin.ok('client_token_exchange', { client_id: agentA.clientId }), { client_id: agentA.clientId, enabled: true, audiences: ['calendar-api', CALENDAR, agentB.clientId] });
  });

  test('an agent exchanges the user token with its own token as actor: act, audience, narrower scope, no refresh token', async () => {
    const subject = decodeJwt(aliceForA);
    const issued = await exchange(agentA, aliceForA, {
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
    const issued = await exchange(agentA, aliceForA, { resource: CALENDAR });
    assert.deepEqual(decodeJwt(issued.access_token).aud, [CALENDAR, agentA.clientId]);
    assert.equal(decodeJwt(issued.access_token).act, undefined, 'no actor token, no act: nobody else acts');
  });

  test('a second agent exchanging the first one\'s token nests the chain; exchanging again without an actor keeps it', async () => {
    const first = await exchange(agentA, aliceForA, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE, audience: agentB.clientId });
    assert.deepEqual(decodeJwt(first.access_token).aud, [agentB.clientId, agentA.clientId], 'addressed to B, so B may exchange it');
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
    const bobForA = await userTokenFor(server, bob.cookie, agentA);
    clock.advance(20 * 60);
    const issued = await exchange(agentA, bobForA);
    const remaining = Number(decodeJwt(bobForA).exp) - Math.floor(clock.now().getTime() / 1000);
    assert.ok(issued.expires_in! <= remaining && issued.expires_in! > 0, `${issued.expires_in} <= ${remaining}`);
    assert.equal(decodeJwt(issued.access_token).exp, decodeJwt(bobForA).exp);
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
    const issued = await exchange(agentA, aliceForA, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE, audience: agentB.clientId });
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
    const subject = aliceForA;
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

  test('a subject token whose aud does not name the exchanging client is refused (invalid_request)', async () => {
    const notForMe = async (who: Agent, subjectToken: string) => {
      const refused = await refusal(who, { subject_token: subjectToken });
      assert.deepEqual([refused.status, refused.error], [400, 'invalid_request'], refused.description);
      assert.match(refused.description, /aud does not name this client/);
    };
    // Alice's first-party token (aud = the instance client) is not agent A's to pass on.
    await notForMe(agentA, alice.tokens.access_token);
    // Alice's token for agent A is not agent B's, nor that of a client with the switch on for other audiences.
    await notForMe(agentB, aliceForA);
    // What A got for calendar-api names calendar-api and A, not B: B cannot take it over.
    const forCalendar = await exchange(agentA, aliceForA, { audience: 'calendar-api' });
    await notForMe(agentB, forCalendar.access_token);
    // The other way round: Alice's token for B is B's to exchange, not A's.
    const aliceForB = await userTokenFor(server, alice.cookie, agentB);
    await notForMe(agentA, aliceForB);
    assert.equal(decodeJwt((await exchange(agentB, aliceForB)).access_token).sub, alice.userId, 'B exchanges the token issued to it');
  });

  test('malformed requests and unacceptable subject tokens are invalid_request', async () => {
    const subject = aliceForA;
    assert.equal((await refusal(agentA, {})).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: subject, subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: subject, requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: 'not-a-token' })).error, 'invalid_request');
    assert.equal((await refusal(agentA, { subject_token: alice.tokens.id_token })).error, 'invalid_request', 'an ID token is no access token');
    // A client_credentials token names no user: it cannot be a subject.
    assert.equal((await refusal(agentA, { subject_token: await actorTokenOf(agentA) })).error, 'invalid_request');
  });

  test('actor tokens: only the exchanging client\'s own token, never the subject, a user token, another client\'s or another issuer\'s', async () => {
    const subject = aliceForA;
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
    const daveForA = await userTokenFor(server, dave.cookie, agentA);
    const issued = await exchange(agentA, daveForA, { actor_token: await actorTokenOf(agentA), actor_token_type: ACCESS_TOKEN_TYPE, audience: agentB.clientId });
    const chained = await exchange(agentB, issued.access_token);
    assert.equal(await tokenIsValid(issued.access_token), true);
    const logout = await fetch(`${server.baseUrl}/v1/logout`, { method: 'POST', headers: { cookie: dave.cookie, origin: server.baseUrl, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(logout.status, 200);
    assert.equal(await tokenIsValid(issued.access_token), false, 'the exchanged token ends with the session');
    assert.equal(await tokenIsValid(chained.access_token), false, 'and so does the one exchanged from it');
    const again = await refusal(agentA, { subject_token: daveForA });
    assert.equal(again.error, 'invalid_request');
    assert.match(again.description, /revoked/);
  });

  test('a subject token revoked alone (RFC 7009) can no longer be exchanged', async () => {
    const erin = await signUpAndLogIn(server);
    const erinForA = await userTokenFor(server, erin.cookie, agentA);
    assert.equal((await exchange(agentA, erinForA)).token_type.toLowerCase(), 'bearer');
    // Agent A revokes the token issued to it (RFC 7009 section 2.1: a client revokes its own tokens).
    const revoked = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(agentA.clientId, agentA.secret) },
      body: new URLSearchParams({ token: erinForA, token_type_hint: 'access_token' }).toString(),
    });
    assert.equal(revoked.status, 200);
    assert.equal(await tokenIsValid(erinForA), false);
    const refused = await refusal(agentA, { subject_token: erinForA });
    assert.equal(refused.error, 'invalid_request');
    assert.match(refused.description, /revoked/);
  });
});
