import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { ROOT, runAction } from '../../scripts/runner.js';

/**
 * How the action's process ends once a signal has cancelled it: src/index.ts, started as
 * the runner starts the action (tsx loads the sources), against the emulator over
 * loopback. A signal at any point leaves the step summary written, once.
 */

const TSX = import.meta.resolve('tsx');
const ENTRY = path.join(ROOT, 'src', 'index.ts');

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ jobDurationMs: 200, queuedMs: 50, log: false });
});
afterAll(async () => {
  await emulator.stop();
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

describe('the action process, signalled', () => {
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
      const run = await runAction({
        inputs: {
          'api-key': emulator.keys.write,
          'base-url': emulator.baseUrl,
          domain: 'docs.example.com',
          path: 'site',
          'poll-interval': '0.5s',
        },
        workspace: path.join(home, 'workspace'),
        node: process.execPath,
        nodeArgs: ['--import', TSX],
        entry: ENTRY,
        env: { HOME: home, TMPDIR: home, GITHUB_STEP_SUMMARY: summaryFile },
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
        killAfterMs: 45_000,
      });
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
