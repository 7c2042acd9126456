/**
 * One instance of a fleet as a real process of the single executable, as an operator runs it (a copy of
 * dist/portcullis alone in a temporary folder, so that a rebuild or an edit of the sources during the test
 * changes nothing), on ports fixed for its whole life, so that a restarted instance comes back where the load
 * balancer expects it. Every instance shares the database, Redis, secrets and public --url (the load
 * balancer's), as a fleet's instances do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePorts, isolatedCopy, serverFlags, type Ports } from '../sea/executable.ts';

export interface Instance {
  readonly name: string;
  readonly ports: Ports;
  child: ChildProcess;
  /** Resolves with the exit code, or the signal that ended the process. */
  exited: Promise<number | string | null>;
  stderr(): string;
}

export interface FleetMember {
  readonly name: string;
  readonly ports: Ports;
  current?: Instance;
}

export interface Executable {
  /** The copy's folder; it also holds each instance's unused SQLite default. */
  dir: string;
  executable: string;
  cleanup(): void;
}

/** The copy of dist/portcullis every instance of the test runs; fails with how to build it when missing. */
export const fleetExecutable = (): Executable => isolatedCopy();

export async function fleetMembers(names: string[]): Promise<FleetMember[]> {
  return Promise.all(names.map(async (name) => ({ name, ports: await freePorts() })));
}

/** Starts the member's process and waits until its /readyz answers 200. */
export async function startInstance(member: FleetMember, copy: Executable, flags: string[]): Promise<Instance> {
  const child = spawn(copy.executable, serverFlags(copy.dir, member.ports, ['--log-level', 'warn', ...flags]), {
    cwd: copy.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const instance: Instance = { name: member.name, ports: member.ports, child, exited, stderr: () => err };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${member.name} exited: ${err}`);
    const ready = await fetch(`http://127.0.0.1:${member.ports.http}/readyz`).then((res) => res.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`${member.name} did not become ready: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  member.current = instance;
  return instance;
}

/** SIGTERM if still running, then the exit. */
export async function stopInstance(member: FleetMember): Promise<number | string | null> {
  const instance = member.current;
  if (!instance) return null;
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGTERM');
  const code = await instance.exited;
  member.current = undefined;
  return code;
}
