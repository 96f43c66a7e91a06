import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/runner.js';

const EMULATOR_KEY = 'mint_emulatorwritekey0001';

/** What a test does to the running demo once its stdout shows `when`. */
interface Interruption {
  when: RegExp;
  act: (child: ReturnType<typeof spawn>) => void;
}

/** `npm start`, as a new user runs it (scripts/demo.ts through tsx), with a short job. */
async function demo(...args: string[]) {
  return interruptedDemo(undefined, ...args);
}

async function interruptedDemo(interruption: Interruption | undefined, ...args: string[]) {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-demo-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/demo.ts',
      '--job-duration',
      '1',
      '--path',
      path.join(tmp, 'site'),
      ...args,
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let acted = false;
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    stdout += t;
    if (interruption && !acted && interruption.when.test(stdout)) {
      acted = true;
      interruption.act(child);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  // tsx keeps its compile cache there; anything else would be the demo's.
  const left = (await fs.readdir(tmp)).filter(
    (name) => name !== 'site' && !name.startsWith('tsx-'),
  );
  await fs.rm(tmp, { recursive: true, force: true });
  return { code, signal, stdout, stderr, left };
}

describe('npm start', () => {
  it('removes its temporary root when interrupted, or when its reader goes away', async () => {
    // Ctrl-C while the action waits for the job: passed on to it, which stops as on a
    // cancelled job; the demo ends with it.
    const stopped = await interruptedDemo(
      { when: /::group::Waiting for export job/, act: (child) => child.kill('SIGINT') },
      '--raw',
      '--job-duration',
      '20',
    );
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(130);
    expect(stopped.stdout).toMatch(/Cancelled \(SIGINT\)/);
    expect(stopped.left).toEqual([]);
    // Twice: both end at once, and the action does not run on.
    const twice = await interruptedDemo(
      {
        when: /::group::Waiting for export job/,
        act: (child) => {
          child.kill('SIGTERM');
          child.kill('SIGTERM');
        },
      },
      '--raw',
      '--job-duration',
      '20',
    );
    expect(twice.code, twice.stdout + twice.stderr).toBe(143);
    expect(twice.left).toEqual([]);
    // `npm start | head`: the pipe closes after the first lines.
    const piped = await interruptedDemo({
      when: /Run your-org/,
      act: (child) => child.stdout?.destroy(),
    });
    expect(piped.signal).toBeNull();
    expect(piped.left).toEqual([]);
  }, 60_000);

  it('shows the log as GitHub does: no workflow command, no key, groups folded', async () => {
    const run = await demo();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const all = run.stdout + run.stderr;
    expect(all).not.toContain('::');
    expect(all).not.toContain(EMULATOR_KEY);
    expect(all).not.toContain('[emulator]');
    expect(run.stdout).toMatch(/^▸ Waiting for export job se_\w+ \(\d+ lines\)$/m);
    // The date is shown too when the link expires on another day (an export before midnight UTC).
    expect(run.stdout).toMatch(
      /^ {4}Link expires +in \d+ min \((?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)$/m,
    );
    // The Helm values are shown, since their file goes with the demo; the link unsigned.
    expect(run.stdout).toMatch(
      /^Helm values .*\n(?: {2}#.*\n)+ {2}staticExport:\n {4}enabled: true\n {4}bundleUrl: "http:[^"?]+\?…"$/m,
    );
    // Its temporary root (runner files, Helm values, emulator cache) is gone.
    expect(run.left).toEqual([]);
  }, 60_000);

  it('lines the outputs up in one column, the change report counts included', async () => {
    const kept = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-demo-kept-'));
    try {
      // The second run finds the first one's export in path, so it reports changes.
      const site = path.join(kept, 'site');
      expect((await demo('--path', site)).code).toBe(0);
      const run = await demo('--path', site);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const outputs = /^Outputs\n((?: {2}.*\n)+)/m.exec(run.stdout)?.[1] ?? '';
      expect(outputs).toContain('pages-navigation-changed');
      const valueColumns = outputs
        .trimEnd()
        .split('\n')
        .map((line) => /^ {2}\S+ +/.exec(line)?.[0].length);
      expect(new Set(valueColumns).size, outputs).toBe(1);
    } finally {
      await fs.rm(kept, { recursive: true, force: true });
    }
  }, 90_000);

  it('answers --help with its usage, and a mistyped argument with one line', async () => {
    const help = await demo('--help');
    expect(help.code, help.stdout + help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^ +npm start -- agent +/m);
    expect(help.stderr).toBe('');
    // A typo must not run the other demo, nor print a stack trace.
    for (const typo of [['agnet'], ['--zpi']]) {
      const run = await demo(...typo);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^npm start: .+\nRun `npm start -- --help` for usage\.\n$/);
      expect(run.left).toEqual([]);
    }
  }, 60_000);

  it('--raw shows what the runner reads, the emulator on stderr', async () => {
    const run = await demo('--raw');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^::group::Waiting for export job/m);
    expect(run.stderr).toMatch(/^\[emulator\] POST \/v1\/static-export\/jobs 202/m);
    expect(run.left).toEqual([]);
  }, 60_000);
});
