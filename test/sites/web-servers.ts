import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../peers/support/processes.js';

/** Debian's Caddy (package caddy) and Apache (package apache2-bin), when installed. */
export const CADDY = ['/usr/bin/caddy'].find((file) => existsSync(file));
export const APACHE = ['/usr/sbin/apache2'].find((file) => existsSync(file));

export interface RunningServer {
  origin: string;
  stop(): Promise<void>;
}

/**
 * Waits until `origin` answers (the server `child` runs in the foreground, its state in
 * `state`); stop() ends it and removes `state`. A server that exits or stays silent for
 * 5 s is an error with what `log` holds.
 */
export async function whenServing(
  name: string,
  child: ChildProcess,
  origin: string,
  state: string,
  log: () => Promise<string>,
): Promise<RunningServer> {
  for (let attempt = 0; ; attempt += 1) {
    const up = await fetch(`${origin}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 50 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start: ${await log().catch(() => '')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(state, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the real Caddy on a loopback port with a site block made by `siteBlock(address)`
 * (an `http://` address, so no certificate is asked for), its admin endpoint off.
 */
export async function startCaddy(siteBlock: (address: string) => string): Promise<RunningServer> {
  if (!CADDY) throw new Error('Caddy is not installed (apt-get install caddy)');
  const state = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-caddy-'));
  const address = `http://127.0.0.1:${await freePort()}`;
  const file = path.join(state, 'Caddyfile');
  await fs.writeFile(file, `{\n\tadmin off\n\tauto_https off\n}\n${siteBlock(address)}\n`);
  let output = '';
  const child = spawn(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: state, XDG_DATA_HOME: state, XDG_CONFIG_HOME: state },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 10_000) output += chunk.toString();
  });
  return whenServing('Caddy', child, address, state, async () => output);
}

/**
 * Lets any user reach `root` (readable) through the temp directories above it (searchable):
 * the tests' own, made 0700. Nothing outside the temp directory is changed.
 */
async function openToAll(root: string): Promise<void> {
  await fs.chmod(root, 0o755);
  const temp = path.resolve(os.tmpdir());
  for (let dir = path.dirname(root); dir.startsWith(temp); dir = path.dirname(dir)) {
    const { mode } = await fs.stat(dir);
    if ((mode & 0o001) === 0) await fs.chmod(dir, mode | 0o001);
    if (dir === temp) break;
  }
}

/**
 * Starts the real Apache in the foreground (`-X`) on a loopback port, serving `root` with
 * `directoryBlock` inside its `<Directory>` (mod_rewrite and mod_dir loaded). As root, it
 * serves as www-data, so `root` is opened to all.
 */
export async function startApache(root: string, directoryBlock: string): Promise<RunningServer> {
  if (!APACHE) throw new Error('Apache is not installed (apt-get install apache2-bin)');
  const state = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-apache-'));
  const port = await freePort();
  const modules = ['mpm_event', 'authz_core', 'dir', 'rewrite'];
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await openToAll(root);
  const config = [
    `ServerRoot ${state}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${port}`,
    `PidFile ${path.join(state, 'httpd.pid')}`,
    `ErrorLog ${path.join(state, 'error.log')}`,
    ...modules.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`),
    ...(asRoot ? ['User www-data', 'Group www-data'] : []),
    `DocumentRoot "${root}"`,
    '<Directory />',
    '  Require all denied',
    '  AllowOverride None',
    '</Directory>',
    `<Directory "${root}">`,
    '  Require all granted',
    '  AllowOverride None',
    directoryBlock,
    '</Directory>',
  ].join('\n');
  const file = path.join(state, 'httpd.conf');
  await fs.writeFile(file, config);
  const child = spawn(APACHE, ['-X', '-f', file], { stdio: 'ignore' });
  return whenServing('Apache', child, `http://127.0.0.1:${port}`, state, () =>
    fs.readFile(path.join(state, 'error.log'), 'utf8'),
  );
}
