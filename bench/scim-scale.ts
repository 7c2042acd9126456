/**
 * `npm run bench:scim [-- --members N --groups N --samples N --stores sqlite,postgres --only TEXT]`: SCIM list
 * pages (GET /scim/v2/Users and /Groups, RFC 7644 section 3.4.2) and a member PATCH of the largest group, over an
 * organization of 100,000 members and 1,000 groups, on SQLite and PostgreSQL. `--only members` runs only the
 * scenarios whose name holds that text (the anchor and the memory figures are measured every time).
 *
 * Data: one organization "scim-bench-big" with N provisioned members (default 100,000: users, org members,
 * SCIM links and their indexed emails) and G groups (default 1,000) of 100 members each, plus one group
 * "Everyone" holding every member (rows of scim_group_members); and one organization "scim-bench-small" of 1,000 members, for the memory
 * comparison. Bulk-inserted (multi-row inserts in transactions) into a SQLite file under
 * /tmp/portcullis-bench-scim and the PostgreSQL database bench_scim (BENCH_SCIM_PG_URL), reused by later runs.
 *
 * Measured in the server's process, as the list endpoint runs it after the bearer token (scim-list.ts in one
 * transaction of the server's storage; the HTTP layer is left out because the per-token allowance of 1,200
 * requests a minute would pace the samples), each `--samples` times (default 200): a page with each filter
 * form Entra ID and Okta send, sorted and deep pages, and the group forms. p50/p99, target p99 < 50 ms. The
 * anchor is what the list did before: read every user of the organization and filter in memory (measured a
 * few times). Memory: the heap a list page grows by (after a full GC, no GC forced during the page) at 1,000
 * and at N members, beside the old whole-organization read. Figures are printed, never asserted.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Organization, OrgMember } from '../server/modules/organizations/index.ts';
import { User } from '../server/modules/users/user.entity.ts';
import { GROUP_VIEW, USER_VIEW } from '../server/modules/scim/scim-attributes.ts';
import { listResources } from '../server/modules/scim/scim-list.ts';
import { groupListSource, userListSource } from '../server/modules/scim/scim-list-sources.ts';
import { findScimGroup } from '../server/modules/scim/scim-groups.service.ts';
import { patchScimGroup } from '../server/modules/scim/scim-group-patch.ts';
import type { PatchOperation } from '../server/modules/scim/scim-patch.ts';
import type { ListQuery } from '../server/modules/scim/scim-query.ts';
import { ScimGroup, ScimGroupMember, ScimUser, ScimUserEmail } from '../server/modules/scim/scim.entity.ts';
import type { ScimScope } from '../server/modules/scim/scim-scope.ts';
import { recordsOf } from '../server/modules/scim/scim-users.service.ts';
import { startServer, type TestServer } from '../test/support/app.ts';
import { numberArg, stringArg } from './harness.ts';
import { percentile, report, type Figure } from './report.ts';

const SQLITE_DIR = '/tmp/portcullis-bench-scim';
const PG_URL = process.env.BENCH_SCIM_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_scim';
const TARGET_MS = 50;
const DAY_MS = 24 * 3600 * 1000;
const START = Date.UTC(2024, 0, 1);

/** A deterministic pseudo-random sequence, so every run and store sees the same data and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const userNameOf = (org: string, i: number) => `Person.${i}@${org}.example`;
const externalIdOf = (org: string, i: number) => `${org}-EXT-${i}`;
const homeEmailOf = (org: string, i: number) => `person${i}@home-${org}.example`;
/** Member i was provisioned on day i/200 and last changed up to a year later. */
const createdOf = (i: number) => new Date(START + Math.floor(i / 200) * DAY_MS + (i % 200) * 1000);
const updatedOf = (i: number) => new Date(createdOf(i).getTime() + Math.floor(random(i)() * 365) * DAY_MS);

async function orgNamed(server: TestServer, name: string) {
  return server.app.deps.storage.fork().findOne(Organization, { name });
}

/** Fills one organization with `members` provisioned users and `groups` groups, unless it exists. */
async function fillOrg(server: TestServer, kind: string, name: string, members: number, groups: number): Promise<void> {
  if (await orgNamed(server, name)) return;
  const started = performance.now();
  const storage = server.app.deps.storage;
  const orgId = randomUUID();
  const now = new Date();
  const userIds: string[] = [];
  for (let from = 0; from < members; from += 20_000) {
    await storage.fork().transactional(async (em) => {
      for (let i = from; i < Math.min(members, from + 20_000); i += 1000) {
        const users = [], links = [], memberships = [], emails = [];
        for (let j = i; j < Math.min(members, i + 1000); j++) {
          const userId = randomUUID();
          const linkId = randomUUID();
          userIds.push(userId);
          const userName = userNameOf(name, j);
          const createdAt = createdOf(j);
          const updatedAt = updatedOf(j);
          users.push({ id: userId, email: userName.toLowerCase(), signupMethods: 'scim', givenName: 'Person', familyName: `N${j}`, roles: ['user'], scimExternalId: externalIdOf(name, j), createdAt, updatedAt });
          memberships.push({ id: randomUUID(), orgId, userId, roles: [], createdAt, updatedAt });
          const resource = { name: { givenName: 'Person', familyName: `N${j}` }, emails: [{ value: userName, type: 'work', primary: true }, { value: homeEmailOf(name, j), type: 'home' }], title: j % 10 === 0 ? 'Engineer' : undefined };
          links.push({ id: linkId, orgId, userId, userName, userNameKey: userName.toLowerCase(), externalId: externalIdOf(name, j), active: j % 50 !== 0, managesAccount: true, resource, version: 1, createdAt, updatedAt });
          for (const value of [userName, homeEmailOf(name, j)]) emails.push({ id: randomUUID(), orgId, linkId, userId, valueKey: value.toLowerCase() });
        }
        await em.insertMany(User, users);
        await em.insertMany(OrgMember, memberships);
        await em.insertMany(ScimUser, links);
        await em.insertMany(ScimUserEmail, emails);
      }
    });
    process.stdout.write(`\r  ${kind} ${name}: ${Math.min(members, from + 20_000).toLocaleString('en')} members inserted`);
  }
  await storage.fork().transactional(async (em) => {
    const pick = random(7);
    const rows = [];
    const memberRows: Array<{ id: string; orgId: string; groupId: string; userId: string }> = [];
    const addMembers = (groupId: string, ids: Iterable<string>) => {
      for (const userId of ids) memberRows.push({ id: randomUUID(), orgId, groupId, userId });
    };
    for (let g = 0; g < groups; g++) {
      const groupMembers = Array.from({ length: Math.min(100, members) }, () => userIds[Math.floor(pick() * members)]!);
      const createdAt = new Date(START + g * 60_000);
      const id = randomUUID();
      rows.push({ id, orgId, displayName: `Group ${g}`, displayNameKey: `group ${g}`, externalId: `${name}-GRP-${g}`, legacyMembers: [], version: 1, createdAt, updatedAt: createdAt });
      addMembers(id, new Set(groupMembers));
    }
    const everyoneId = randomUUID();
    rows.push({ id: everyoneId, orgId, displayName: 'Everyone', displayNameKey: 'everyone', externalId: `${name}-GRP-all`, legacyMembers: [], version: 1, createdAt: now, updatedAt: now });
    addMembers(everyoneId, userIds);
    for (let i = 0; i < rows.length; i += 100) await em.insertMany(ScimGroup, rows.slice(i, i + 100));
    for (let i = 0; i < memberRows.length; i += 1000) await em.insertMany(ScimGroupMember, memberRows.slice(i, i + 1000));
    // The organization last: its presence says the fill is complete.
    await em.insertMany(Organization, [{ id: orgId, name, displayName: name, enabled: true, createdAt: now, updatedAt: now }]);
  });
  await storage.fork().getConnection().execute(kind === 'postgres' ? 'vacuum analyze' : 'analyze');
  console.log(` in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

interface Scenario {
  readonly name: string;
  readonly kind: 'Users' | 'Groups';
  readonly query: (n: number) => ListQuery;
  /** Instead of a list page: a PATCH of the group (scim-group-patch.ts), its answer's members read as the endpoint reads them. */
  readonly patch?: { readonly groupId: string; readonly operations: (n: number) => PatchOperation[] };
}

function scenarios(org: string, members: number, groups: number, everyoneId: string, memberId: string): Scenario[] {
  const pick = random(99);
  const some = Array.from({ length: 64 }, () => Math.floor(pick() * members));
  const at = (n: number) => some[n % some.length]!;
  const q = (text: string) => text;
  const day = (d: number) => new Date(START + d * DAY_MS).toISOString();
  const lastDay = Math.floor(members / 200) + 365;
  return [
    { name: 'no filter, first page of 100', kind: 'Users', query: () => ({ startIndex: '1', count: '100' }) },
    { name: 'no filter, last page (startIndex = N - 99)', kind: 'Users', query: () => ({ startIndex: String(members - 99), count: '100' }) },
    { name: 'sortBy=userName, middle page', kind: 'Users', query: () => ({ sortBy: 'userName', startIndex: String(Math.floor(members / 2)), count: '100' }) },
    { name: 'sortBy=meta.lastModified descending, first page', kind: 'Users', query: () => ({ sortBy: 'meta.lastModified', sortOrder: 'descending', count: '100' }) },
    { name: 'userName eq (other letter case)', kind: 'Users', query: (n) => ({ filter: q(`userName eq "${userNameOf(org, at(n)).toUpperCase()}"`), startIndex: '1', count: '100' }) },
    { name: 'emails[value eq]', kind: 'Users', query: (n) => ({ filter: q(`emails[value eq "${homeEmailOf(org, at(n))}"]`) }) },
    { name: 'emails.value eq', kind: 'Users', query: (n) => ({ filter: q(`emails.value eq "${userNameOf(org, at(n))}"`) }) },
    { name: 'externalId eq', kind: 'Users', query: (n) => ({ filter: q(`externalId eq "${externalIdOf(org, at(n))}"`) }) },
    { name: 'meta.lastModified gt (last 30 days)', kind: 'Users', query: () => ({ filter: q(`meta.lastModified gt "${day(lastDay - 30)}"`), count: '100' }) },
    { name: 'meta.lastModified ge and lt (one day), sorted', kind: 'Users', query: (n) => ({ filter: q(`meta.lastModified ge "${day(100 + (n % 200))}" and meta.lastModified lt "${day(101 + (n % 200))}"`), sortBy: 'meta.lastModified' }) },
    { name: 'userName eq or userName eq', kind: 'Users', query: (n) => ({ filter: q(`userName eq "${userNameOf(org, at(n))}" or userName eq "${userNameOf(org, at(n + 1))}"`) }) },
    { name: 'externalId eq and active eq true', kind: 'Users', query: (n) => ({ filter: q(`externalId eq "${externalIdOf(org, at(n))}" and active eq true`) }) },
    { name: 'userName sw (prefix), attributes=userName', kind: 'Users', query: (n) => ({ filter: q(`userName sw "person.${at(n) % 1000}"`), attributes: 'userName', count: '100' }) },
    { name: 'title pr and userName eq (in memory over 1 row)', kind: 'Users', query: (n) => ({ filter: q(`title pr and userName eq "${userNameOf(org, at(n))}"`) }) },
    { name: 'Groups: first page, excludedAttributes=members', kind: 'Groups', query: () => ({ excludedAttributes: 'members', count: '100' }) },
    { name: 'Groups: displayName eq, excludedAttributes=members', kind: 'Groups', query: (n) => ({ filter: q(`displayName eq "group ${n % groups}"`), excludedAttributes: 'members' }) },
    { name: 'Groups: displayName eq "Everyone" (N members), excludedAttributes=members', kind: 'Groups', query: () => ({ filter: q('displayName eq "Everyone"'), excludedAttributes: 'members' }) },
    { name: 'Groups: id eq "Everyone" and members[value eq] (Entra ID\'s membership check)', kind: 'Groups', query: () => ({ filter: q(`id eq "${everyoneId}" and members[value eq "${memberId}"]`), excludedAttributes: 'members' }) },
    {
      name: 'Groups: PATCH "Everyone", a member removed (members[value eq]) and added back, alternately',
      kind: 'Groups',
      query: () => ({}),
      patch: { groupId: everyoneId, operations: (n) => (n % 2 === 0 ? [{ op: 'remove', path: `members[value eq "${memberId}"]` }] : [{ op: 'add', path: 'members', value: [{ value: memberId }] }]) },
    },
  ];
}

async function scopeOf(server: TestServer, orgName: string): Promise<(work: (scope: ScimScope) => Promise<unknown>) => Promise<unknown>> {
  const org = await orgNamed(server, orgName);
  if (!org) throw new Error(`no organization ${orgName}`);
  const { deps } = server.app;
  return (work) => deps.storage.fork().transactional((em) => work({ em, deps, req: { ip: '127.0.0.1', userAgent: 'bench' } as never, org, baseUrl: `${server.baseUrl}/scim/v2/` }));
}

function patchOf(groupId: string, operations: PatchOperation[]) {
  return async (scope: ScimScope) => {
    const answered = await patchScimGroup(scope, await findScimGroup(scope, groupId), operations, {});
    return { totalResults: answered.members?.length ?? 0 };
  };
}

function listOf(kind: 'Users' | 'Groups', query: ListQuery) {
  return (scope: ScimScope) => (kind === 'Users' ? listResources(USER_VIEW, userListSource(scope), query) : listResources(GROUP_VIEW, groupListSource(scope), query));
}

/** What the list did before: every link and user of the organization read, then filtered in memory. */
function wholeOrganization(scope: ScimScope) {
  return scope.em.find(ScimUser, { orgId: scope.org.id }, { orderBy: { createdAt: 'asc', id: 'asc' } }).then((links) => recordsOf(scope, links));
}

const gc = (globalThis as { gc?: () => void }).gc;

/** The heap a call grows by: a full GC first, none forced during it (so an upper bound of what it keeps live). */
async function heapGrowth(work: () => Promise<unknown>): Promise<number> {
  if (!gc) return NaN;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = await work();
  const grown = process.memoryUsage().heapUsed - before;
  void kept;
  return grown / 2 ** 20;
}

/**
 * The sorted latencies of `samples` runs after ten warm-up runs, and the CPU time of this process per run
 * (user + system: the server's work, and on SQLite the database's too), which a busy machine inflates far
 * less than the wall-clock latency.
 */
async function timed(samples: number, run: (n: number) => Promise<unknown>): Promise<{ latencies: number[]; cpuMs: number }> {
  for (let n = 0; n < Math.min(10, samples); n++) await run(n);
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let n = 0; n < samples; n++) {
    const started = performance.now();
    await run(n);
    latencies.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { latencies: latencies.sort((a, b) => a - b), cpuMs: (cpu.user + cpu.system) / 1000 / samples };
}

async function benchStore(kind: 'sqlite' | 'postgres', members: number, groups: number, samples: number, only: string | undefined): Promise<Figure[]> {
  if (kind === 'sqlite') mkdirSync(SQLITE_DIR, { recursive: true });
  const flags = kind === 'sqlite' ? ['--database-type', 'sqlite', '--database-url', `${SQLITE_DIR}/scim-${members}.db`] : ['--database-type', 'postgres', '--database-url', PG_URL];
  if (kind === 'sqlite' && !existsSync(`${SQLITE_DIR}/scim-${members}.db`)) console.log(`  sqlite: creating ${SQLITE_DIR}/scim-${members}.db`);
  const server = await startServer(flags);
  const big = `scim-bench-big-${members}`;
  const small = 'scim-bench-small-1000';
  const figures: Figure[] = [];
  try {
    await fillOrg(server, kind, big, members, groups);
    await fillOrg(server, kind, small, 1000, 10);
    const inBig = await scopeOf(server, big);
    const inSmall = await scopeOf(server, small);
    const everyone = (await inBig((s) => s.em.findOne(ScimGroup, { orgId: s.org.id, displayNameKey: 'everyone' }, { fields: ['id'] }))) as { id: string };
    const member = (await inBig((s) => s.em.findOne(ScimUser, { orgId: s.org.id, userNameKey: userNameOf(big, members - 1).toLowerCase() }))) as { userId: string };
    console.log(`${kind}: organization of ${members.toLocaleString('en')} members and ${groups.toLocaleString('en')} groups`);
    const old: number[] = [];
    for (let n = 0; n < 3; n++) {
      const started = performance.now();
      await inBig(wholeOrganization);
      old.push(performance.now() - started);
    }
    const anchor = old.sort((x, y) => x - y)[1]!;
    console.log(`  anchor, the whole organization read as before: median of 3 ${anchor.toFixed(0)} ms`);
    for (const scenario of scenarios(big, members, groups, everyone.id, member.userId).filter((s) => !only || s.name.toLowerCase().includes(only))) {
      let results = 0;
      const { latencies, cpuMs } = await timed(samples, async (n) => {
        const work = scenario.patch ? patchOf(scenario.patch.groupId, scenario.patch.operations(n)) : listOf(scenario.kind, scenario.query(n));
        const answer = (await inBig(work)) as { totalResults: number };
        results += answer.totalResults;
      });
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      console.log(`  ${scenario.kind} ${scenario.name}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms, CPU ${cpuMs.toFixed(1)} ms a call, totalResults ${(results / (samples + Math.min(10, samples))).toFixed(0)}  [target p99 < ${TARGET_MS} ms]`);
      figures.push({ figure: `${kind}: ${scenario.kind} ${scenario.name}, p99 ms`, ours: p99, anchorName: 'whole organization read, median of 3', anchor, unit: 'ms', target: `< ${TARGET_MS} ms`, met: p99 < TARGET_MS, detail: `p50 ${p50.toFixed(1)} ms, CPU ${cpuMs.toFixed(1)} ms a call` });
    }
    const refused = await inBig(listOf('Users', { filter: 'title pr' })).then(() => 'answered', (err: Error) => err.message);
    console.log(`  Users filter "title pr" alone: ${refused}`);
    const page: ListQuery = { count: '100' };
    const smallHeap = await heapGrowth(() => inSmall(listOf('Users', page)));
    const bigHeap = await heapGrowth(() => inBig(listOf('Users', page)));
    const oldHeap = await heapGrowth(() => inBig(wholeOrganization));
    const groupHeap = await heapGrowth(() => inBig(listOf('Groups', { filter: 'displayName eq "Everyone"', excludedAttributes: 'members' })));
    console.log(`  heap grown by a page of 100 users: ${smallHeap.toFixed(1)} MiB at 1,000 members, ${bigHeap.toFixed(1)} MiB at ${members.toLocaleString('en')}; the whole organization read: ${oldHeap.toFixed(1)} MiB; the "Everyone" group without members: ${groupHeap.toFixed(1)} MiB`);
    figures.push({ figure: `${kind}: heap grown by a Users page of 100 at ${members.toLocaleString('en')} members, MiB`, ours: bigHeap, anchorName: 'same page at 1,000 members', anchor: smallHeap, unit: 'MiB', target: 'does not grow with the organization (< 2x)', met: bigHeap < 2 * Math.max(smallHeap, 0.5), detail: `whole organization read: ${oldHeap.toFixed(1)} MiB; Everyone group without members: ${groupHeap.toFixed(1)} MiB` });
  } finally {
    await server.close();
  }
  return figures;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const members = numberArg(argv, 'members', 100_000);
  const groups = numberArg(argv, 'groups', 1000);
  const samples = numberArg(argv, 'samples', 200);
  const stores = (stringArg(argv, 'stores') ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  const only = stringArg(argv, 'only')?.toLowerCase();
  if (!gc) console.log('  (run with node --expose-gc for the memory figures: npm run bench:scim does)');
  const figures: Figure[] = [];
  for (const kind of stores) figures.push(...(await benchStore(kind, members, groups, samples, only)));
  report('scim', figures);
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:scim failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
