import { afterEach } from 'vitest';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** A directory of the test's own under the run's temporary root (never the system's tmp itself). */
export async function scratch(name: string): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), `peer-${name}-`));
}

/** A port nothing listens on right now, on `host`. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once something accepts connections on host:port. */
export async function waitForPort(
  host: string,
  port: number,
  child?: ChildProcess,
  timeoutMs = 15_000,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (child && child.exitCode !== null) {
      throw new Error(`the process exited (${child.exitCode}) before listening on ${port}`);
    }
    if (Date.now() - started > timeoutMs) throw new Error(`nothing listens on ${host}:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Peer {
  /** What the process wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a peer program and waits until it listens on host:port; `stop` ends it by its pid. */
export async function startPeer(
  command: string,
  args: string[],
  listen: { host: string; port: number },
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Peer> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    await waitForPort(listen.host, listen.port, child);
  } catch (err) {
    await stop();
    throw new Error(`${command} did not start: ${(err as Error).message}\n${output}`, {
      cause: err,
    });
  }
  return { output: () => output, stop };
}

/** A forward proxy started on loopback. */
export interface ForwardProxy extends Peer {
  port: number;
  /** The proxy URL, with the credentials when the proxy asks for them. */
  url: string;
}

/** A proxy URL on loopback, with `auth` in it, percent-encoded. */
export function proxyUrl(
  port: number,
  auth?: { user: string; password: string },
  scheme: 'http' | 'https' | 'socks5' = 'http',
): string {
  const credentials = auth
    ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@`
    : '';
  return `${scheme}://${credentials}127.0.0.1:${port}`;
}

/**
 * A Debian program a family of peer tests needs. Locally a missing one skips the family
 * with the reason printed; in CI (CI=true) it fails, since .ci/run installs them.
 */
export function tool(file: string, installedBy: string): { available: boolean; reason: string } {
  const available = fs.existsSync(file);
  const reason = `${file} is missing: apt-get install ${installedBy}`;
  if (!available && process.env.CI === 'true') throw new Error(`CI needs ${reason}`);
  if (!available) console.warn(`skipping: ${reason}`);
  return { available, reason };
}

export interface Relay {
  port: number;
  /** Connections accepted so far: one per attempt the client made. */
  connections(): number;
  stop(): Promise<void>;
}

/** A TCP relay to 127.0.0.1:`target` that counts the connections it carries. */
export async function startCountingRelay(target: number): Promise<Relay> {
  let connections = 0;
  const server = net.createServer((client) => {
    connections += 1;
    const upstream = net.connect(target, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Cleanup {
  /** Registers a started peer (or anything with `stop`) and returns it. */
  later<T extends { stop(): Promise<unknown> }>(peer: T): T;
  /** Registers any other undo step. */
  add(step: () => Promise<unknown>): void;
}

/** What a test starts is stopped when it ends, last first, whether it passed or not. */
export function stopAfterEach(): Cleanup {
  const steps: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (steps.length > 0) await steps.pop()?.();
  });
  return {
    later(peer) {
      steps.push(() => peer.stop());
      return peer;
    },
    add(step) {
      steps.push(step);
    },
  };
}
