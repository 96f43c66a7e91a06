import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError, PathInUseError, TimeoutError } from '../../src/errors.js';
import { endChild, srcModule, startChildScript } from '../support/child-script.js';
import {
  type CaseOptions,
  type CaseRun,
  errorLines,
  type Harness,
  noticeLines,
  startHarness,
} from '../support/in-process.js';

/**
 * Runs that overlap on one `path`, as on a persistent self-hosted runner (two workflow
 * runs, two commands): end to end through the core against the emulator, on a fake
 * machine in a temp dir. The other run is this process's (a second run in-process) or a
 * real process of its own that holds the lock, or held it until it was killed outright.
 */

let harness: Harness;
let machine: string;
let workspace: string;
let runnerTemp: string;

beforeAll(async () => {
  harness = await startHarness({ jobDurationMs: 3000, queuedMs: 100 });
});
afterAll(async () => {
  await harness.stop();
});
beforeEach(async () => {
  machine = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'path-lock-')));
  workspace = path.join(machine, 'home', 'runner', 'work', 'docs', 'docs');
  runnerTemp = path.join(machine, 'home', 'runner', 'work', '_temp');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(runnerTemp, { recursive: true });
  harness.emulator.requests.length = 0;
  return () => fs.rm(machine, { recursive: true, force: true });
});

function run(inputs: Record<string, string>, options: CaseOptions = {}): Promise<CaseRun> {
  return harness.run(
    { domain: 'docs.example.com', 'poll-interval': '0.5s', ...inputs },
    { workspace, tempDir: runnerTemp, ...options },
  );
}

const apiRequests = () => harness.emulator.requests.filter((r) => r.server === 'api');

/** Another run, a process of its own, holding the lock `file`; it prints its pid. */
function otherRunHolding(file: string) {
  return startChildScript(
    `import { lockPath, LOCK_WAIT } from ${srcModule('deliver/path-lock.ts')};
     await lockPath(${JSON.stringify(file)}, {
       wait: LOCK_WAIT, reporter: { info() {}, notice() {} }, shown: 'site',
     });
     console.log(process.pid);
     setInterval(() => {}, 60_000);`,
  );
}

describe('runs into one path', () => {
  it('take turns: the second waits for the first, then replaces its export', async () => {
    // Started together: whichever takes path first, the other waits for its whole export.
    const runs = await Promise.all([
      run({ path: 'site' }, { lockWait: { everyMs: 10 } }),
      run({ path: 'site' }, { lockWait: { everyMs: 10 } }),
    ]);
    for (const each of runs) expect(each.code, each.stdout).toBe(0);
    const waiting = /^Waiting for the run that holds /m;
    const second = runs.find((each) => waiting.test(each.stdout));
    const first = runs.find((each) => each !== second);
    expect(first?.stdout).not.toMatch(waiting);
    const lock = path.join(workspace, '.site.static-export.lock');
    expect(second?.stdout).toMatch(
      new RegExp(
        `^Waiting for the run that holds ${lock} \\(pid ${process.pid}, started \\S+\\) to end, for up to 10m 00s: runs into one \`path\` take turns\\.$`,
        'm',
      ),
    );
    expect(second?.stdout).toContain(
      `Replaced the earlier export in ${path.join(workspace, 'site')} (job ${first?.outputs['job-id']},`,
    );
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it.each([
    ['the site', { path: 'site' }, '.site.static-export.lock'],
    [
      'an archive kept in path',
      { path: 'out', extract: 'false' },
      'out/.docs.example.com.static-export.lock',
    ],
  ])(
    'fail, while another holds %s, with a clear error that is no input error, before any request',
    async (_, inputs, lockName) => {
      const lock = path.join(workspace, lockName);
      await fs.mkdir(path.dirname(lock), { recursive: true });
      const { child, line: pid } = await otherRunHolding(lock);
      try {
        const result = await run(inputs, { lockWait: { limitMs: 100, everyMs: 10 } });
        expect(result.code).toBe(1);
        expect(result.outcome.error).toBeInstanceOf(PathInUseError);
        expect(result.outcome.error).not.toBeInstanceOf(InputError);
        expect(errorLines(result)).toEqual([
          expect.stringMatching(
            new RegExp(
              `^::error::Another run is writing ${workspace}/${inputs.path}: the run that holds ${lock} \\(pid ${pid}, started \\S+\\) had not ended after \\S+\\. .* If that run is no longer going on, remove ${lock} and run again\\.$`,
            ),
          ),
        ]);
        expect(apiRequests()).toEqual([]);
        expect(await fs.readdir(path.dirname(lock))).toEqual([path.basename(lock)]);
      } finally {
        await endChild(child);
      }
    },
  );

  it("record when the run's timeout ends it, for a run on another host or container to judge", async () => {
    const lock = path.join(workspace, '.site.static-export.lock');
    const started = Date.now();
    const running = run({ path: 'site', timeout: '2h' });
    let text: string | undefined;
    while (text === undefined && Date.now() - started < 10_000) {
      text = await fs.readFile(lock, 'utf8').catch(() => undefined);
      if (text === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await running).code).toBe(0);
    const until = Date.parse((JSON.parse(text ?? '{}') as { until: string }).until);
    expect(until - started).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    await expect(fs.access(lock)).rejects.toThrow();
  });

  it('leave path as it is when another run took the lock over meanwhile', async () => {
    const lock = path.join(workspace, '.site.static-export.lock');
    const running = run({ path: 'site' });
    const started = Date.now();
    while (
      !(await fs.access(lock).then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() - started > 10_000) throw new Error('the run took no lock');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // While the job runs, another run judges this one ended and takes the lock over.
    const record = `${JSON.stringify({ format: 'static-export-lock', pid: 4242, hostname: 'runner-b', startedAt: new Date().toISOString() })}\n`;
    await fs.rm(lock);
    await fs.writeFile(lock, record);
    const result = await running;
    expect(result.code).toBe(1);
    expect(result.outcome.error).toBeInstanceOf(PathInUseError);
    expect(errorLines(result)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::The export was not put in place, and \`path\` was left as it is: Another run took over the lock on ${workspace}/site \\(${lock.replace(/[.]/g, '\\.')}\\) while this run held it`,
        ),
      ),
    ]);
    // Neither the site nor anything of this run's is there; the other run's lock stays.
    expect(await fs.readdir(workspace)).toEqual(['.site.static-export.lock']);
    expect(await fs.readFile(lock, 'utf8')).toBe(record);
  });

  it('fail on the command line with exit code 1 and the code path-in-use, never 2', async () => {
    const lock = path.join(workspace, '.site.static-export.lock');
    const { child } = await otherRunHolding(lock);
    try {
      const result = await harness.cli(
        [
          'export',
          '--base-url',
          harness.emulator.baseUrl,
          '--domain',
          'docs.example.com',
          '--json',
        ],
        {
          cwd: workspace,
          env: { ADMIN_API_KEY: harness.emulator.keys.write, STATIC_EXPORT_PATH: 'site' },
          lockWait: { limitMs: 50, everyMs: 10 },
        },
      );
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({
        error: {
          code: 'path-in-use',
          message: expect.stringMatching(/^Another run is writing .*site: the run that holds/),
        },
      });
    } finally {
      await endChild(child);
    }
  });

  it('take over, with a notice, the lock of a run killed outright (SIGKILL)', async () => {
    const lock = path.join(workspace, '.site.static-export.lock');
    const { child, line: pid } = await otherRunHolding(lock);
    await endChild(child, 'SIGKILL');
    const result = await run({ path: 'site' });
    expect(result.code, result.stdout).toBe(0);
    expect(noticeLines(result)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::notice::Took over ${lock}, left by a run that ended without removing it \\(pid ${pid}, started \\S+\\): no process has pid ${pid}\\.$`,
        ),
      ),
    ]);
    expect(await fs.readdir(workspace)).toEqual(['site']);
  });

  it('say which run held path when the timeout passes while waiting for it', async () => {
    const lock = path.join(workspace, '.site.static-export.lock');
    const { child, line: pid } = await otherRunHolding(lock);
    try {
      // The wait on the run's own clock, so that the timeout passes during it.
      const result = await run(
        { path: 'site', timeout: '1m' },
        { lockWait: { clock: harness.clock } },
      );
      expect(result.outcome.error).toBeInstanceOf(TimeoutError);
      expect(errorLines(result)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^::error::\`path\` was still held by the run that holds ${lock} \\(pid ${pid}, started \\S+\\) when the 1m 00s timeout passed, so nothing was started\\. Runs into one \`path\` must not overlap: run again once that run has ended, or give each run its own \`path\`\\.$`,
          ),
        ),
      ]);
      expect(apiRequests()).toEqual([]);
    } finally {
      await endChild(child);
    }
  });
});
