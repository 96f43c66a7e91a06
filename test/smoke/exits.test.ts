import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { staleness } from '../../scripts/dist-record.js';
import { ROOT } from '../../scripts/runner.js';
import { listTree, strayFiles } from '../support/files.js';
import { writeEarlierExport } from '../support/earlier-export.js';

/**
 * However the process ends — a reader that goes away, a closed terminal, a crash — `path`
 * is the complete old export or the complete new one, and nothing temporary is left in
 * the workspace or the temp directory. Runs the built CLI as a shell does.
 */

const CLI = path.join(ROOT, 'dist', 'cli', 'index.js');

// Fail when the bundle is not what the sources build to: npm test rebuilds it first.
const stale = staleness();
if (stale) throw new Error(`dist/ is stale (${stale}): run npm run build, or npm test.`);
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    jobDurationMs: 600,
    queuedMs: 50,
    archiveSizeBytes: 4 * 1024 * 1024,
    log: false,
  });
});
afterAll(async () => {
  await emulator.stop();
});

interface Machine {
  workspace: string;
  tmp: string;
}

async function machine(): Promise<Machine> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'exits-'));
  const workspace = path.join(root, 'workspace');
  const tmp = path.join(root, 'tmp');
  await fs.mkdir(workspace);
  await fs.mkdir(tmp);
  await writeEarlierExport(path.join(workspace, 'site'), { 'previous.html': 'the earlier export' });
  return { workspace, tmp };
}

function startCli(m: Machine, args: string[]) {
  const child = spawn(
    process.execPath,
    [CLI, 'export', '--domain', 'docs.example.com', '--path', 'site', ...args],
    {
      cwd: m.workspace,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: m.workspace,
        TMPDIR: m.tmp,
        ADMIN_API_KEY: emulator.keys.write,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exited, output: () => stdout + stderr, stderr: () => stderr };
}

/** Runs a module given as text (tsx loads the sources), from the project root. */
async function runScript(
  script: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

async function expectNothingTemporary(m: Machine): Promise<void> {
  expect(await fs.readdir(m.workspace)).toEqual(['site']);
  expect(await strayFiles(m.tmp)).toEqual([]);
}

describe('clean exits', () => {
  it('finishes the export when the reader of stdout goes away (| head), without a stack trace', async () => {
    const m = await machine();
    const cli = startCli(m, ['--base-url', emulator.baseUrl]);
    // Like `| head -n 1`: read the first line, then close the pipe.
    await new Promise<void>((resolve) =>
      cli.child.stdout.once('data', () => {
        cli.child.stdout.destroy();
        resolve();
      }),
    );
    const code = await cli.exited;
    expect(cli.stderr()).not.toMatch(/EPIPE|at .*\.js:\d+|Error:/);
    expect(code).toBe(0);
    expect(await listTree(path.join(m.workspace, 'site'))).toContain('index.html');
    await expectNothingTemporary(m);
  });

  it('on SIGHUP during the download (a closed terminal), keeps the earlier export and removes the partial tree', async () => {
    const m = await machine();
    emulator.faults.add({ route: 'store.get', stallAfterBytes: 1024 * 1024 });
    const cli = startCli(m, ['--base-url', emulator.baseUrl]);
    await expect.poll(() => cli.output(), { timeout: 15_000, interval: 20 }).toMatch(/Downloading/);
    // Wait until the partial tree really exists beside path.
    await expect
      .poll(
        async () => (await fs.readdir(m.workspace)).some((n) => n.startsWith('.site.partial-')),
        {
          timeout: 10_000,
          interval: 20,
        },
      )
      .toBe(true);
    cli.child.kill('SIGHUP');
    // 128 + SIGHUP's number, as a shell reports a process that a closed terminal ended.
    expect(await cli.exited).toBe(129);
    expect(cli.output()).toMatch(/Cancelled \(SIGHUP\)/);
    expect(await listTree(path.join(m.workspace, 'site'))).toEqual(['previous.html']);
    await expectNothingTemporary(m);
  });

  it('ends at once on a second signal, and says why', async () => {
    // The first signal cancels the run; this one never ends, as a cleanup that hangs would not.
    const script = `
      import { cancelOnSignals } from ${JSON.stringify(path.join(ROOT, 'src', 'signals.ts'))};
      const { signal } = cancelOnSignals();
      signal.addEventListener('abort', () => {
        process.stdout.write('cancelled\\n');
        setTimeout(() => process.kill(process.pid, 'SIGINT'), 20);
      });
      setInterval(() => undefined, 1000);
      process.kill(process.pid, 'SIGINT');
    `;
    const { code, stdout, stderr } = await runScript(script);
    expect(stdout + stderr).toBe(
      'cancelled\nSIGINT while stopping: ending at once, without waiting for the run to end.\n',
    );
    expect(code).toBe(130);
  });

  it('removes what a run registered even when the process dies of an uncaught exception', async () => {
    const m = await machine();
    const staging = path.join(m.workspace, '.site.partial-crash');
    const script = `
      import { trackTemporary } from ${JSON.stringify(path.join(ROOT, 'src', 'deliver', 'place.ts'))};
      import fs from 'node:fs';
      fs.mkdirSync(${JSON.stringify(staging)});
      fs.writeFileSync(${JSON.stringify(path.join(staging, 'half.html'))}, 'half');
      trackTemporary(${JSON.stringify(staging)});
      setTimeout(() => { throw new Error('a bug'); }, 10);
    `;
    const { code, stderr } = await runScript(script);
    expect(code, stderr).not.toBe(0);
    expect(stderr).toMatch(/a bug/);
    await expectNothingTemporary(m);
  });
});
