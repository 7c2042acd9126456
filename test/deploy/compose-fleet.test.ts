/**
 * deploy/compose.fleet.yaml and deploy/haproxy.cfg agree (docs/fleet.md): every HAProxy backend server is an
 * instance of the compose file and every instance a server; checks on /readyz take a stopping instance out
 * within its drain delay; failed connections are retried on another instance; the instances run flags the
 * server accepts, trust X-Forwarded-For only from the edge network's containers, and read secrets from files.
 * build/compose-fleet-proof.sh runs the fleet itself (root, minutes; not part of npm test).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { directives, haproxyMilliseconds, parseHaproxyConfig, serverOption } from './support/haproxy-config.ts';
import { flagDef, ipv4Range, parseServerArgs } from './support/server-args.ts';

const DEPLOY = join(import.meta.dirname, '../../deploy');

interface ComposeService {
  image?: string;
  command?: string[];
  networks?: string[];
  ports?: string[];
  secrets?: string[];
  volumes?: string[];
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  networks: Record<string, { ipam?: { config?: Array<{ subnet?: string; ip_range?: string }> } } | null>;
  secrets: Record<string, { file: string }>;
}

// YAML merge keys (`<<: *portcullis`) as Docker Compose and podman-compose read them.
const compose = parse(readFileSync(join(DEPLOY, 'compose.fleet.yaml'), 'utf8'), { merge: true }) as ComposeFile;
const haproxy = parseHaproxyConfig(readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8'));
const section = (keyword: string, name?: string) => haproxy.find((s) => s.keyword === keyword && (name === undefined || s.name === name));

const instances = Object.entries(compose.services).filter(([, s]) => s.image?.startsWith('${PORTCULLIS_IMAGE'));
const frontend = section('frontend');
const backendName = directives(frontend, 'default_backend')[0]?.[1];
const backend = section('backend', backendName);
const defaults = section('defaults');
const servers = directives(backend, 'server');
const defaultServer = directives(backend, 'default-server')[0] ?? directives(defaults, 'default-server')[0] ?? [];
/** A server's option, from its own line or else from default-server. */
const option = (server: readonly string[], keyword: string) => serverOption(server, keyword) ?? serverOption(defaultServer, keyword);
/** Compose interpolation with nothing set (Compose Specification "Interpolation"): `${NAME:-default}`. */
const withDefaults = (value: string) => value.replace(/\$\{\w+:?-([^}]*)\}/g, '$1');
const args = (name: string) => parseServerArgs((compose.services[name]!.command ?? []).map(withDefaults));
const seconds = (value: string) => haproxyMilliseconds(value) / 1000;

describe('deploy/compose.fleet.yaml and deploy/haproxy.cfg', () => {
  test('three instances, each a server of the backend HAProxy forwards to, and nothing else there', () => {
    assert.equal(instances.length, 3);
    assert.ok(backend, `the frontend's default_backend ${backendName} is a backend section`);
    const named = servers.map(([, , address]) => address!.split(':')[0]);
    assert.deepEqual(named.sort(), instances.map(([name]) => name).sort(), 'backend servers are exactly the compose instances');
    for (const [, , address] of servers) {
      const host = address!.split(':')[0]!;
      assert.ok(compose.services[host], `${host} is a compose service`);
      assert.equal(Number(address!.split(':')[1]), args(host).config.httpPort, `${address} is the instance's --http-port`);
    }
  });

  test('health checks GET /readyz and take only a 200 as up', () => {
    const send = directives(backend, 'http-check', 'send')[0] ?? [];
    const legacy = directives(backend, 'option', 'httpchk')[0] ?? [];
    assert.ok(directives(backend, 'option', 'httpchk').length === 1, 'option httpchk');
    const uri = serverOption(send, 'uri') ?? legacy[3];
    assert.equal(uri, '/readyz');
    assert.equal(serverOption(send, 'meth') ?? legacy[2], 'GET');
    assert.deepEqual(directives(backend, 'http-check', 'expect')[0], ['http-check', 'expect', 'status', '200']);
    for (const server of servers) assert.ok(server.includes('check') || defaultServer.includes('check'), `${server[1]} is checked`);
  });

  test('a stopping instance is out of rotation before its drain delay ends', () => {
    for (const server of servers) {
      const inter = haproxyMilliseconds(option(server, 'inter') ?? '2s');
      const fastinter = haproxyMilliseconds(option(server, 'fastinter') ?? option(server, 'inter') ?? '2s');
      const fall = Number(option(server, 'fall') ?? 3);
      const checkTimeout = haproxyMilliseconds(directives(defaults, 'timeout', 'check')[0]?.[2] ?? directives(defaults, 'timeout', 'connect')[0]?.[2] ?? '5s');
      // The first failing check starts within inter of the drain's start, the next ones fastinter apart; a
      // draining instance's 503 comes at once, so only a check already in flight can take the check timeout
      // (docs/reverse-proxy.md#stopping-an-instance: drain delay > interval x fall, plus one check timeout).
      const outWithin = inter + (fall - 1) * fastinter + checkTimeout;
      const drain = args(server[2]!.split(':')[0]!).config.shutdownDrainDelay * 1000;
      assert.ok(outWithin < drain, `${server[1]}: out within ${outWithin} ms, before the ${drain} ms drain delay ends`);
      assert.ok(Number(option(server, 'rise') ?? 2) >= 1);
    }
  });

  test('a request whose connection fails is sent again, to another instance', () => {
    const retryOn = directives(defaults, 'retry-on')[0] ?? directives(backend, 'retry-on')[0] ?? [];
    assert.ok(retryOn.includes('conn-failure'), 'retry-on conn-failure');
    // A request on a connection that broke after it was sent, or a slow one, may have run: sending a POST
    // again would do it twice (docs/reverse-proxy.md#haproxy-for-a-fleet).
    for (const unsafe of ['empty-response', 'response-timeout', 'junk-response', 'all-retryable-errors']) {
      assert.ok(!retryOn.includes(unsafe), `no retry-on ${unsafe}: that request may have run`);
    }
    assert.ok(Number(directives(defaults, 'retries')[0]?.[1] ?? directives(backend, 'retries')[0]?.[1]) >= 1, 'retries');
    assert.ok([...directives(defaults, 'option', 'redispatch'), ...directives(backend, 'option', 'redispatch')].length > 0, 'option redispatch');
  });

  test("X-Forwarded-For carries the client's address, whatever the client sent", () => {
    assert.equal(directives(frontend, 'option', 'forwardfor').length, 1, 'option forwardfor');
    const dropped = directives(frontend, 'http-request', 'del-header').some((w) => w[2]?.toLowerCase() === 'x-forwarded-for');
    assert.ok(dropped, 'http-request del-header X-Forwarded-For');
  });

  test('the instances run the same flags, all of them accepted by the server', () => {
    const [first, ...others] = instances.map(([, s]) => s.command);
    for (const other of others) assert.deepEqual(other, first);
    const { given, config } = args(instances[0]![0]);
    for (const name of given.keys()) assert.ok(flagDef(name), `--${name} is a server flag`);
    assert.equal(config.databaseType, 'postgres');
    assert.ok(config.redisUrl, 'the instances share their counters through --redis-url');
  });

  test('X-Forwarded-For is trusted from the edge network\'s containers only, HAProxy among them', () => {
    const edge = compose.networks.edge?.ipam?.config?.[0];
    assert.ok(edge?.subnet && edge.ip_range, 'the edge network has a fixed subnet and ip_range');
    const subnet = ipv4Range(edge.subnet)!;
    const containers = ipv4Range(edge.ip_range)!;
    const gateway = subnet[0] + 1;
    assert.ok(containers[0] > gateway && containers[1] <= subnet[1], 'ip_range is inside the subnet and leaves out the gateway');
    const trusted = args(instances[0]![0]).config.trustedProxies.map((cidr) => ipv4Range(cidr));
    assert.ok(trusted.length > 0 && trusted.every(Boolean), '--trusted-proxies lists IPv4 CIDRs');
    for (const [first, last] of trusted as Array<[number, number]>) {
      assert.ok(first >= containers[0] && last <= containers[1], '--trusted-proxies is within the containers\' range');
      assert.ok(gateway < first || gateway > last, 'the host\'s gateway address is not trusted');
    }
    assert.deepEqual(compose.services.haproxy?.networks, ['edge'], 'HAProxy is on the edge network only');
    for (const [name, service] of instances) assert.ok(service.networks?.includes('edge'), `${name} is on edge`);
    for (const name of ['postgres', 'redis']) assert.ok(!compose.services[name]?.networks?.includes('edge'), `${name} is not on edge`);
  });

  test('only HAProxy publishes a port, the one its frontend binds', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'haproxy') assert.equal(service.ports, undefined, `${name} publishes nothing`);
    }
    const published = compose.services.haproxy!.ports!.map((p) => p.split(':').at(-1));
    const bound = directives(frontend, 'bind').map((w) => w[1]!.split(':').at(-1));
    assert.deepEqual(published, bound);
    assert.ok(compose.services.haproxy!.volumes?.includes('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'), 'HAProxy reads this haproxy.cfg');
  });

  test('secrets come from files; a secret flag given inline is a URL without a password', () => {
    for (const [name, service] of instances) {
      const { given, files } = args(name);
      for (const [flag, value] of given) {
        if (!flagDef(flag)?.secret) continue;
        const path = files.get(flag);
        if (path === undefined) {
          assert.equal(new URL(value).password, '', `--${flag} of ${name} holds no password inline`);
          continue;
        }
        const secret = /^\/run\/secrets\/(.+)$/.exec(path)?.[1];
        assert.ok(secret && service.secrets?.includes(secret), `--${flag} reads a secret ${name} mounts`);
        assert.ok(compose.secrets[secret], `secret ${secret} is declared`);
      }
      for (const flag of ['admin-secret', 'client-secret', 'jwt-secret', 'database-password']) assert.ok(files.has(flag), `--${flag} from a file`);
    }
  });

  test('a stop waits for the server\'s own shutdown; the databases it names are services', () => {
    for (const [name, service] of instances) {
      const { config } = args(name);
      assert.ok(seconds(service.stop_grace_period ?? '10s') > config.shutdownTimeout, `${name}: stop_grace_period > --shutdown-timeout`);
      assert.ok(compose.services[new URL(String(config.databaseUrl)).hostname], 'the database URL names a compose service');
      assert.ok(compose.services[new URL(String(config.redisUrl)).hostname], 'the Redis URL names a compose service');
    }
  });
});
