import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type ActionRun, ROOT, runAction, type RunActionOptions } from '../../scripts/runner.js';
import { type ArtifactService, startArtifactService } from '../support/artifact-service.js';
import { writeEarlierExport } from '../support/earlier-export.js';
import { listTree } from '../support/files.js';

/**
 * How the action's process ends once a signal has cancelled it: src/index.ts, started as
 * the runner starts the action (tsx loads the sources), against the emulator over
 * loopback, and a local artifact service. A signal at any point leaves the step summary
 * written, once; what takes no signal (the artifact upload's requests) does not keep the
 * process alive once it is.
 */

const TSX = import.meta.resolve('tsx');
const ENTRY = path.join(ROOT, 'src', 'index.ts');

let emulator: Emulator;
let service: ArtifactService;
beforeAll(async () => {
  emulator = await startEmulator({ jobDurationMs: 200, queuedMs: 50, log: false });
  service = await startArtifactService({ stallUploads: true });
});
afterAll(async () => {
  await Promise.all([emulator.stop(), service.stop()]);
});

/**
 * Whether a thread of process `pid` waits in open(2) for the other end of a FIFO; undefined
 * where the kernel does not say what its threads wait in (wchan reads 0).
 */
async function waitsForFifoReader(pid: number): Promise<boolean | undefined> {
  const tasks = await fs.readdir(`/proc/${pid}/task`).catch(() => []);
  const waits = await Promise.all(
    tasks.map((tid) => fs.readFile(`/proc/${pid}/task/${tid}/wchan`, 'utf8').catch(() => '')),
  );
  if (waits.some((wait) => wait.trim() === 'wait_for_partner')) return true;
  return waits.some((wait) => /^[a-z_]+$/.test(wait.trim())) ? false : undefined;
}

/**
 * An export of docs.example.com into `site` by src/index.ts, run as the runner runs the
 * action, with `home` as its HOME, TMPDIR and the parent of its workspace.
 */
function runFromSources(
  home: string,
  inputs: Record<string, string>,
  { env, onSpawn }: Pick<RunActionOptions, 'env' | 'onSpawn'>,
): Promise<ActionRun> {
  return runAction({
    inputs: {
      'api-key': emulator.keys.write,
      'base-url': emulator.baseUrl,
      domain: 'docs.example.com',
      path: 'site',
      'poll-interval': '0.5s',
      ...inputs,
    },
    workspace: path.join(home, 'workspace'),
    node: process.execPath,
    nodeArgs: ['--import', TSX],
    entry: ENTRY,
    env: { HOME: home, TMPDIR: home, ...env },
    ...(onSpawn ? { onSpawn } : {}),
    killAfterMs: 45_000,
  });
}

describe('the action process, signalled', () => {
  it(
    'SIGTERM during the artifact upload: the summary is written and the process exits at once',
    { timeout: 60_000 },
    async () => {
      const home = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cancel-exit-'));
      const workspace = path.join(home, 'workspace');
      await writeEarlierExport(path.join(workspace, 'site'), { 'previous.html': 'earlier' });
      let signalledAt: number | undefined;
      const run = await runFromSources(
        home,
        { 'artifact-name': 'docs' },
        {
          env: service.env,
          onSpawn: (pid) => {
            // Once the upload's blob request is out (and never answered), the runner cancels.
            const poll = setInterval(() => {
              if (!service.calls.some((call) => call.startsWith('blob'))) return;
              clearInterval(poll);
              signalledAt = Date.now();
              process.kill(pid, 'SIGTERM');
            }, 20);
          },
        },
      );
      const endedAfterMs = Date.now() - (signalledAt ?? Infinity);
      expect(signalledAt, run.stdout + run.stderr).toBeDefined();
      // The upload would go on for minutes: the process ends with the run, not with it.
      expect(endedAfterMs, run.stdout + run.stderr).toBeLessThan(5000);
      expect(run.signal, run.stdout + run.stderr).toBeNull();
      expect(run.code).toBe(1);
      const site = path.join(workspace, 'site');
      const cancelled = `Cancelled (SIGTERM). The export was already in place in ${site}; temporary files were removed.`;
      expect(run.stdout.split('\n').filter((line) => line.startsWith('::error'))).toEqual([
        `::error::${cancelled}`,
      ]);
      expect(run.summary).toContain(cancelled);
      expect(await listTree(site)).toContain('index.html');
    },
  );

  it(
    'SIGTERM while the summary is written: the summary is written whole, once',
    { timeout: 60_000 },
    async () => {
      const home = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cancel-summary-'));
      // Writing to a FIFO blocks until it is read: the signal lands inside the summary write.
      const summaryFile = path.join(home, 'step-summary');
      execFileSync('mkfifo', [summaryFile]);
      let reader: Promise<string> | undefined;
      let stopReader = () => {};
      let signalled = false;
      const run = await runFromSources(
        home,
        {},
        {
          env: { GITHUB_STEP_SUMMARY: summaryFile },
          onSpawn: (pid, stdout) => {
            let doneAt: number | undefined;
            const poll = setInterval(async () => {
              if (!/^Put the exported site in /m.test(stdout())) return;
              doneAt ??= Date.now();
              // Without wchan, the summary write is under way well within a second of the end.
              const waiting = (await waitsForFifoReader(pid)) ?? Date.now() - doneAt > 1000;
              if (!waiting) return;
              clearInterval(poll);
              if (signalled) return;
              signalled = true;
              process.kill(pid, 'SIGTERM');
              // Read only once the signal was sent, and for as long as a writer is there.
              const cat = spawn('cat', [summaryFile], { stdio: ['ignore', 'pipe', 'ignore'] });
              stopReader = () => cat.kill();
              let text = '';
              cat.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
              reader = new Promise((resolve) => cat.on('close', () => resolve(text)));
            }, 20);
          },
        },
      );
      // A writer that never came (the process was killed first) leaves cat waiting.
      setTimeout(stopReader, 1000);
      const summary = await (reader ?? Promise.resolve(''));
      expect(signalled, run.stdout + run.stderr).toBe(true);
      expect(run.signal, run.stdout + run.stderr).toBeNull();
      // The run was over when the signal came: it stands as it ended.
      expect(run.code).toBe(0);
      expect(summary.match(/### ✅ Static export of docs\.example\.com/g)).toHaveLength(1);
    },
  );
});
