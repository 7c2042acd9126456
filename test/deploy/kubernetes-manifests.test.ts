/**
 * The Kubernetes example (deploy/kubernetes/, docs/fleet.md#kubernetes): every object is valid against the
 * Kubernetes schemas (kubernetes-models), and the settings that keep a fleet up are right: readiness on
 * /readyz, a liveness probe that does not depend on the database, a grace period that covers the drain, flags
 * the server accepts, secrets read from the mounted Secret's files.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import { flagDef, ipv4Range, parseServerArgs } from './support/server-args.ts';

const DIR = join(import.meta.dirname, '../../deploy/kubernetes');

interface Manifest {
  readonly file: string;
  readonly object: { apiVersion?: string; kind?: string; [key: string]: unknown };
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(join(dir, entry.name)) : /\.ya?ml$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

function loadManifests(): Manifest[] {
  return yamlFiles(DIR).flatMap((path) => {
    const file = relative(join(DIR, '../..'), path);
    return parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
      assert.deepEqual(doc.errors.map(String), [], `${file} is not valid YAML`);
      return { file, object: doc.toJS() as Manifest['object'] };
    });
  });
}

/** The kubernetes-models class of each kind the example uses; validate() throws on a schema error. */
function validated(manifest: Manifest): void {
  const { object, file } = manifest;
  const key = `${object.apiVersion} ${object.kind}`;
  const model = {
    'apps/v1 Deployment': () => new Deployment(object as unknown as IDeployment),
    'v1 Service': () => new Service(object as unknown as IService),
    'policy/v1 PodDisruptionBudget': () => new PodDisruptionBudget(object as unknown as IPodDisruptionBudget),
    'v1 Secret': () => new Secret(object as unknown as ISecret),
  }[key];
  assert.ok(model, `${file}: ${key} is not a kind this test knows; add its kubernetes-models class`);
  assert.doesNotThrow(() => model().validate(), `${file}: ${key} fails the Kubernetes schema`);
}

const manifests = loadManifests();
const only = <T>(kind: string): T => {
  const found = manifests.filter((m) => m.object.kind === kind);
  assert.equal(found.length, 1, `exactly one ${kind} in deploy/kubernetes/`);
  return found[0]!.object as T;
};
const deployment = only<IDeployment>('Deployment');
const podSpec = deployment.spec!.template.spec!;
const container = (): IContainer => {
  assert.equal(podSpec.containers.length, 1, 'one container in the pod');
  return podSpec.containers[0]!;
};
let parsed: ReturnType<typeof parseServerArgs> | undefined;
/** The container's args through the server's parser (its refusal fails the test that asks first). */
const server = (): ReturnType<typeof parseServerArgs> => (parsed ??= parseServerArgs(container().args ?? []));
const SECRET_MOUNT_NAME = 'secrets';

/** The container port a probe or Service names (by name or number). */
function containerPort(port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container().ports?.find((p) => p.name === port)?.containerPort;
}

function preStopSleepSeconds(): number {
  const preStop = container().lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  const command = preStop.exec?.command ?? [];
  assert.equal(command[0], 'sleep', 'preStop only pauses (sleep N), so that the drain happens in the server');
  return Number(command[1]);
}

describe('deploy/kubernetes: the Kubernetes example', () => {
  test('every YAML document is a Kubernetes object valid against its schema', () => {
    assert.ok(manifests.length >= 4, 'Deployment, Service, PodDisruptionBudget and the Secret template');
    for (const manifest of manifests) validated(manifest);
  });

  test('the schema check refuses a wrong object (the validation is not a no-op)', () => {
    const broken = structuredClone(deployment) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'three';
    assert.throws(() => new Deployment(broken as unknown as IDeployment).validate(), /replicas/);
  });

  test('three replicas, a rollout that keeps three, a disruption budget of one pod', () => {
    assert.equal(deployment.spec!.replicas, 3);
    assert.equal(deployment.spec!.strategy?.rollingUpdate?.maxUnavailable, 0);
    const budget = only<IPodDisruptionBudget>('PodDisruptionBudget').spec!;
    const oneAtATime = budget.maxUnavailable === 1 || budget.minAvailable === deployment.spec!.replicas! - 1;
    assert.ok(oneAtATime, 'the budget lets one pod go at a time (maxUnavailable 1 or minAvailable replicas - 1)');
    assert.deepEqual(budget.selector?.matchLabels, deployment.spec!.selector.matchLabels);
  });

  test('readiness is GET /readyz on the HTTP port', () => {
    const readiness = container().readinessProbe;
    assert.equal(readiness?.httpGet?.path, '/readyz');
    assert.equal(containerPort(readiness?.httpGet?.port), server().config.httpPort);
  });

  test('liveness does not depend on the database: not an HTTP probe on /healthz, /health or /readyz', () => {
    // /healthz answers 503 while the database is unreachable (docs/api-overview.md): a liveness probe on it
    // would restart every pod at once during a database outage, which a restart does not mend.
    const probes: Array<[string, IProbe | undefined]> = [['liveness', container().livenessProbe], ['startup', container().startupProbe]];
    for (const [name, probe] of probes) {
      if (name === 'liveness') assert.ok(probe, 'a liveness probe is set');
      if (!probe) continue;
      assert.ok(!['/healthz', '/health', '/readyz'].includes(probe.httpGet?.path ?? ''), `${name} probe is not on a database-dependent route`);
      assert.equal(probe.exec, undefined, `${name} probe runs no command (the image has no client)`);
      assert.equal(containerPort(probe.tcpSocket?.port ?? probe.httpGet?.port), server().config.httpPort, `${name} probe is on the HTTP port`);
    }
  });

  test('the grace period covers the preStop pause, the drain delay and the shutdown timeout', () => {
    const grace = podSpec.terminationGracePeriodSeconds ?? 30;
    const { shutdownDrainDelay: drain, shutdownTimeout: timeout } = server().config;
    assert.ok(drain > 0, '--shutdown-drain-delay keeps the pod serving while it leaves the endpoints');
    assert.ok(grace > drain + timeout, `terminationGracePeriodSeconds ${grace} > drain ${drain} + timeout ${timeout}`);
    // Kubernetes counts the grace period from before preStop; SIGTERM comes after it.
    const pause = preStopSleepSeconds();
    assert.ok(grace > pause + timeout, `terminationGracePeriodSeconds ${grace} > preStop ${pause} + timeout ${timeout}`);
    const readiness = container().readinessProbe!;
    const outAfter = (readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3);
    assert.ok(pause + drain > outAfter, `preStop ${pause} + drain ${drain} s outlast the readiness probe's ${outAfter} s to fail`);
  });

  test('every flag in args is a real server flag the parser accepts', () => {
    assert.doesNotThrow(server, 'the server would start with these flags');
    for (const name of server().given.keys()) assert.ok(flagDef(name), `--${name} is a server flag`);
    assert.equal(server().config.databaseType, 'postgres');
    assert.ok(server().given.has('redis-url'), 'a fleet shares its rate-limit counters through --redis-url');
    for (const cidr of server().config.trustedProxies) assert.ok(ipv4Range(cidr), `--trusted-proxies ${cidr} is a CIDR`);
  });

  test('every secret flag reads a file of the mounted Secret, and the Secret template has each key', () => {
    const mount = container().volumeMounts?.find((m) => m.name === SECRET_MOUNT_NAME);
    assert.ok(mount?.readOnly, 'the Secret is mounted read-only');
    const volume = podSpec.volumes?.find((v) => v.name === SECRET_MOUNT_NAME);
    const secret = only<ISecret>('Secret');
    assert.equal(volume?.secret?.secretName, secret.metadata?.name);
    const keys = Object.keys({ ...secret.stringData, ...secret.data });
    for (const name of server().given.keys()) {
      if (!flagDef(name)?.secret) continue;
      const path = server().files.get(name);
      assert.ok(path, `--${name} is a secret flag and is given as file:<path>, not inline`);
      assert.ok(path.startsWith(`${mount.mountPath}/`), `--${name} reads from the Secret's mount`);
      assert.ok(keys.includes(path.slice(mount.mountPath.length + 1)), `the Secret template has the key --${name} reads`);
    }
    // The template's empty values stop the server at start instead of running with a known secret.
    for (const value of Object.values(secret.stringData ?? {})) assert.equal(value, '');
  });

  test('a read-only root filesystem keeps a writable /tmp for the executable\'s native addon', () => {
    if (!container().securityContext?.readOnlyRootFilesystem) return;
    assert.ok(container().volumeMounts?.some((m) => m.mountPath === '/tmp'), '/tmp is a volume');
  });

  test('memory request and limit bound the measured resident memory', () => {
    // bench/RESULTS.md: 102-116 MiB resident when idle, 284 MiB at the peak of mixed load.
    const mebibytes = (q: string | number | undefined): number => {
      const match = /^(\d+)(Mi|Gi)$/.exec(String(q));
      assert.ok(match, `memory quantity ${q} in Mi or Gi`);
      return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
    };
    const resources = container().resources!;
    assert.ok(mebibytes(resources.requests?.memory) >= 128, 'the request covers the idle footprint');
    assert.ok(mebibytes(resources.limits?.memory) >= 300, 'the limit covers the peak under load');
  });

  test('the Service selects the pods and targets ports the container declares', () => {
    const service = only<IService>('Service').spec!;
    assert.deepEqual(service.selector, deployment.spec!.template.metadata?.labels);
    for (const port of service.ports ?? []) {
      assert.ok(containerPort(port.targetPort ?? port.port), `Service port ${port.name} targets a container port`);
    }
    assert.equal(containerPort('http'), server().config.httpPort);
    assert.equal(containerPort('grpc'), server().config.grpcPort);
    assert.equal(containerPort('metrics'), server().config.metricsPort);
  });
});
