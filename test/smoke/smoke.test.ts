import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it as test } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { staleness } from '../../scripts/dist-record.js';
import { NODE24, ROOT, runAction } from '../../scripts/runner.js';
import { docsArchive, newBuildId, samplePages } from '../support/docs-site.js';
import { listTree } from '../support/files.js';

/**
 * The smoke layer: the built dist/index.js and the CLI, started as the runner and a shell
 * start them (INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, real
 * signals, stdin, the packed tarball through npx), on the current Node and on Node 24 (the
 * runtime of `runs.using: node24`). Everything else runs in-process (support/in-process.ts).
 */

const CURRENT = Number(process.versions.node.split('.')[0]);
const RUNTIMES = [
  { name: `Node ${CURRENT}`, node: process.execPath },
  ...(CURRENT === 24 ? [] : [{ name: 'Node 24', node: NODE24 }]),
];
const DOMAIN = 'docs.example.com';

// Fail when the bundle is not what the sources build to: npm test rebuilds it first.
const stale = staleness();
if (stale) throw new Error(`dist/ is stale (${stale}): run npm run build, or npm test.`);

const node24Missing = CURRENT !== 24 && !existsSync(NODE24);
if (node24Missing) {
  const message = `Node 24 is not installed at ${NODE24} (node scripts/install-tools.mjs node24).`;
  // In CI a missing runtime is a failure; on a laptop the Node 24 pass is skipped.
  if (process.env.CI === 'true') throw new Error(message);
  console.log(`Skipping the Node 24 smoke tests: ${message}`);
}

let emulator: Emulator;
/** Its export jobs take 2 minutes: a run is still polling when the signal comes. */
let slowEmulator: Emulator;
/** Serves a 300-page docs site. */
let docs: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    jobDurationMs: 400,
    queuedMs: 50,
    pageCount: 4,
    agentDurationMs: 400,
    log: false,
  });
  slowEmulator = await startEmulator({ jobDurationMs: 120_000, log: false });
  // Enough pages that the fingerprint worker starts (it leaves a few pages to the main thread).
  const site = await docsArchive({ pages: samplePages(300, 2), buildId: newBuildId('smoke') });
  docs = await startEmulator({ jobDurationMs: 0, queuedMs: 0, log: false, archiveFor: () => site });
});
afterAll(async () => {
  await Promise.all([emulator.stop(), slowEmulator.stop(), docs.stop()]);
});

/** Everything a run printed or left for later steps, the `::add-mask::` commands aside. */
function readable(...texts: string[]): string {
  return texts
    .join('\n')
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

/** The API the action talks to, with the write key, as a workflow would pass them. */
const api = () => ({ 'api-key': emulator.keys.write, 'base-url': emulator.baseUrl });

/**
 * The PATH of a user's shell: `npm test` puts the project's `node_modules/.bin` first,
 * where a command installed by npx would find tools it never installed itself.
 */
const SHELL_PATH = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => !dir.split(path.sep).includes('node_modules'))
  .join(path.delimiter);

/**
 * Runs dist/cli/index.js (or another command line) from a shell-like environment. Its
 * temp directory is the test run's, so report files never land in the machine's.
 */
function runCommand(
  command: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [program, ...args] = command;
  const child = spawn(program as string, args, {
    cwd: options.cwd,
    env: { PATH: SHELL_PATH, HOME: options.cwd, TMPDIR: os.tmpdir(), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(options.stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A case of a runtime that is not installed (only outside CI). */
const skipped = test.skip;

let tarball = '';
beforeAll(async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-pack-'));
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  tarball = path.join(dir, packed.stdout.trim().split('\n').at(-1) as string);
});

describe.concurrent('smoke', () => {
  for (const runtime of RUNTIMES) {
    const it = runtime.node === NODE24 && node24Missing ? skipped : test;
    {
      it(`${runtime.name}: dist/index.js exports a site as the runner runs it`, async () => {
        const sha = 'c'.repeat(40);
        const run = await runAction({
          node: runtime.node,
          // Padded as a workflow file may pad them: the runner hands them over as written.
          inputs: { ...api(), domain: `  ${DOMAIN} `, path: 'site', 'helm-values-file': 'v.yaml' },
          env: { GITHUB_SHA: sha, RUNNER_DEBUG: '1' },
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.outputs).toMatchObject({
          'job-id': expect.stringMatching(/^se_[0-9a-f]{16}$/),
          status: 'completed',
          'page-count': '4',
          path: path.join(run.workspace, 'site'),
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        // GITHUB_OUTPUT in the runner's heredoc form, the job id first.
        expect(run.outputFile).toMatch(/^job-id<<ghadelimiter_[0-9a-f-]+\nse_/);
        expect(run.summary).toContain(`### ✅ Static export of ${DOMAIN}`);
        expect(
          (await listTree(path.join(run.workspace, 'site'))).filter((f) => f.endsWith('.html')),
        ).toHaveLength(4);
        expect(await fs.readFile(path.join(run.workspace, 'v.yaml'), 'utf8')).toContain(
          `version: "${sha}"`,
        );
        expect(run.stdout).toContain(`::add-mask::${emulator.keys.write}`);
        expect(run.stdout).toMatch(/^::debug::/m);
        expect(readable(run.stdout, run.stderr, run.outputFile, run.summary)).not.toContain(
          emulator.keys.write,
        );
        expect(await fs.readdir(run.tempDir)).toEqual([]);
      });

      it(`${runtime.name}: dist/index.js fingerprints pages in its worker thread, and compares the next export with them`, async () => {
        const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-smoke-changes-'));
        const exportInto = () =>
          runAction({
            node: runtime.node,
            workspace,
            inputs: {
              'api-key': docs.keys.write,
              'base-url': docs.baseUrl,
              domain: DOMAIN,
              path: 'site',
              'broken-links': 'off',
            },
            env: { RUNNER_DEBUG: '1' },
          });
        const first = await exportInto();
        expect(first.code, first.stdout + first.stderr).toBe(0);
        expect(first.stdout).toMatch(/Fingerprinted 300 pages in a worker thread while extracting/);
        const manifest = JSON.parse(
          await fs.readFile(path.join(workspace, 'site', '.static-export.json'), 'utf8'),
        ) as { files: { path: string; page?: { content: string } }[] };
        const pages = manifest.files.filter((f) => f.path.endsWith('.html'));
        expect(pages).toHaveLength(300);
        expect(pages.every((f) => /^[0-9a-f]{32}$/.test(f.page?.content ?? ''))).toBe(true);

        const second = await exportInto();
        expect(second.code, second.stdout + second.stderr).toBe(0);
        expect(second.stdout).toMatch(/Fingerprinted 300 pages .*\(300 carried over/);
        expect(second.outputs).toMatchObject({
          'pages-added': '0',
          'pages-removed': '0',
          'pages-changed': '0',
        });
        await fs.rm(workspace, { recursive: true, force: true });
      });

      it(`${runtime.name}: dist/index.js runs an agent job to its pull request`, async () => {
        const run = await runAction({
          node: runtime.node,
          inputs: {
            ...api(),
            command: 'agent',
            'project-id': 'demo-project',
            prompt: 'Fix the typos',
            'poll-interval': '0.5s',
          },
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.outputs).toEqual({
          'agent-job-id': expect.stringMatching(/^[0-9a-f]{24}$/),
          'agent-repository': 'https://github.com/example/docs',
          'agent-branch': expect.stringMatching(/^agent\/[0-9a-f]{8}$/),
          'agent-model': expect.any(String),
          'agent-status': 'completed',
          'pr-link': expect.stringMatching(/\/pull\/\d+$/),
        });
        expect(run.summary).toContain('### ✅ Agent job in demo-project');
      });

      it(`${runtime.name}: dist/index.js sends a follow-up to an existing agent job and follows it`, async () => {
        const created = await fetch(`${emulator.baseUrl}/v2/agent/demo-project/job`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${emulator.keys.write}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ prompt: 'Add a quickstart' }),
        });
        const { id } = (await created.json()) as { id: string };
        const run = await runAction({
          node: runtime.node,
          inputs: {
            ...api(),
            command: 'agent',
            'project-id': 'demo-project',
            'agent-job-id': id,
            prompt: 'Also add error handling examples',
            'poll-interval': '0.5s',
          },
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(emulator.agentJobs.get(id)?.prompts).toEqual([
          'Add a quickstart',
          'Also add error handling examples',
        ]);
        expect(run.outputs).toMatchObject({
          'agent-job-id': id,
          'agent-status': 'completed',
          'pr-link': expect.stringMatching(/\/pull\/\d+$/),
        });
        expect(run.summary).toContain('| Follow-up | Also add error handling examples |');
      });

      it(`${runtime.name}: dist/index.js refuses bad inputs with one annotation each, before any request`, async () => {
        // A base-url path of its own: a request from this case would be told apart.
        const prefix = `/refused-${CURRENT}-${runtime.name.replace(/\W/g, '')}`;
        const run = await runAction({
          node: runtime.node,
          inputs: {
            ...api(),
            'base-url': `${emulator.baseUrl}${prefix}`,
            domain: 'https://docs.example.com/',
            timeout: 'soon',
          },
        });
        expect(run.code).toBe(1);
        expect(run.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
          expect.stringMatching(/^::error::Invalid input domain: must be a bare hostname/),
          expect.stringMatching(/^::error::Invalid input timeout: must be a duration/),
        ]);
        expect(run.outputFile).toBe('');
        expect(run.summary).toBe('');
        expect(emulator.requests.filter((r) => r.path.startsWith(prefix))).toEqual([]);
      });

      it(`${runtime.name}: dist/index.js stops on SIGTERM, says so once and removes its temporary files`, async () => {
        let sentAt = 0;
        const run = await runAction({
          node: runtime.node,
          inputs: {
            'api-key': slowEmulator.keys.write,
            'base-url': slowEmulator.baseUrl,
            domain: DOMAIN,
            path: 'site',
            // Polls 30 s apart: a run that ignored the signal would sit in that wait.
            'poll-interval': '30s',
          },
          killAfterMs: 40_000,
          onSpawn: (pid, stdout) => {
            const timer = setInterval(() => {
              if (!/\] (queued|running)/.test(stdout())) return;
              clearInterval(timer);
              sentAt = Date.now();
              process.kill(pid, 'SIGTERM');
            }, 10);
          },
        });
        expect(sentAt, run.stdout).toBeGreaterThan(0);
        // Far below the 30 s wait, with room for a loaded machine.
        expect(Date.now() - sentAt).toBeLessThan(10_000);
        expect(run.signal).toBeNull();
        expect(run.code).toBe(1);
        expect(run.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
          expect.stringMatching(
            /^::error::Cancelled \(SIGTERM\)\. Export job (se_\w+) keeps running on the server; .* Rerun with `job-id: \1`/,
          ),
        ]);
        expect(await fs.readdir(run.tempDir)).toEqual([]);
        expect(await fs.readdir(run.workspace)).toEqual([]);
      });

      it(`${runtime.name}: dist/cli/index.js runs an agent job with the prompt on stdin, --json on stdout`, async () => {
        const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-'));
        const cli = path.join(ROOT, 'dist', 'cli', 'index.js');
        const prompt = 'Update the changelog\nfor the 2.0 release';
        const run = await runCommand(
          [
            runtime.node,
            cli,
            'agent',
            '--json',
            '--base-url',
            emulator.baseUrl,
            '--project-id',
            'demo-project',
            '--prompt',
            '-',
            '--poll-interval',
            '0.5s',
          ],
          { cwd, env: { ADMIN_API_KEY: emulator.keys.write }, stdin: prompt },
        );
        expect(run.code, run.stderr).toBe(0);
        const outputs = JSON.parse(run.stdout) as Record<string, string>;
        expect(outputs['agent-status']).toBe('completed');
        expect(emulator.agentJobs.get(outputs['agent-job-id'] as string)?.prompts).toEqual([
          prompt,
        ]);
        expect(run.stdout + run.stderr).not.toContain(emulator.keys.write);
      });

      it(`${runtime.name}: dist/cli/index.js refuses --api-key - typed at a terminal`, async () => {
        const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-cli-'));
        const cli = path.join(ROOT, 'dist', 'cli', 'index.js');
        const quoted = [runtime.node, cli, 'export', '--domain', DOMAIN, '--api-key', '-']
          .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
          .join(' ');
        // util-linux `script` runs it on a pseudo-terminal, as from a person's shell.
        const run = await runCommand(
          ['script', '--quiet', '--return', '--command', quoted, '/dev/null'],
          {
            cwd,
          },
        );
        expect(run.code, run.stdout).toBe(2);
        expect(run.stdout).toContain(
          'error: --api-key - reads the key from a pipe, and stdin is a terminal',
        );
      });

      it(`${runtime.name}: the packed tarball runs with npx as a shell would start it`, async () => {
        const cwd = path.dirname(tarball);
        const work = await fs.mkdtemp(path.join(cwd, 'run-'));
        const run = await runCommand(
          [
            'npx',
            '--yes',
            // As the README has it: a relative path, which npx reads as a tarball.
            `../${path.basename(tarball)}`,
            'export',
            '--base-url',
            emulator.baseUrl,
            '--domain',
            DOMAIN,
            '--path',
            'site',
            '--poll-interval',
            '0.5s',
          ],
          {
            cwd: work,
            env: {
              // npx and the tool's `#!/usr/bin/env node` both take this runtime's node.
              PATH: `${path.dirname(runtime.node)}${path.delimiter}${SHELL_PATH}`,
              ADMIN_API_KEY: emulator.keys.write,
              npm_config_cache: path.join(work, 'npm-cache'),
              npm_config_update_notifier: 'false',
            },
          },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^ {2}status +completed$/m);
        expect(await listTree(path.join(work, 'site'))).toContain('index.html');
        expect(run.stdout + run.stderr).not.toContain(emulator.keys.write);
      });
    }
  }
});

describe('the packed tarball', () => {
  test('installs with npm i -g and carries no script that npm would run or ask about', async () => {
    const work = await fs.mkdtemp(path.join(path.dirname(tarball), 'global-'));
    const install = spawnSync(
      'npm',
      ['install', '--global', '--offline', '--prefix', path.join(work, 'prefix'), tarball],
      {
        cwd: work,
        encoding: 'utf8',
        env: {
          ...process.env,
          npm_config_cache: path.join(work, 'npm-cache'),
          npm_config_update_notifier: 'false',
          npm_config_fund: 'false',
          npm_config_audit: 'false',
        },
      },
    );
    expect(install.status, install.stderr).toBe(0);
    // npm 11 warns of a package's install scripts (prepare among them, from a file).
    expect(install.stderr).not.toMatch(/install-scripts|patch-package/);
    const installed = path.join(work, 'prefix', 'lib', 'node_modules', 'static-export-action');
    const manifest = JSON.parse(await fs.readFile(path.join(installed, 'package.json'), 'utf8'));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(manifest.scripts ?? {}).not.toHaveProperty(script);
    }
    const version = spawnSync(path.join(work, 'prefix', 'bin', 'static-export'), ['--version'], {
      encoding: 'utf8',
    });
    expect(version.stdout).toMatch(/^static-export \d+\.\d+\.\d+/);
  });
});

/** A site past the size at which the readiness scan moves to worker threads (16 MB read). */
async function largeLeakySite(dir: string): Promise<string> {
  const site = path.join(dir, 'site');
  await fs.mkdir(path.join(site, 'guides'), { recursive: true });
  const filler = `<p>${'Text of a long page, with <code>code</code> and a <a href="/">link</a>. '.repeat(40)}</p>\n`;
  for (let i = 0; i < 120; i += 1) {
    const last = i === 119;
    await fs.writeFile(
      path.join(site, 'guides', `page-${String(i).padStart(3, '0')}.html`),
      `<!DOCTYPE html><html><head><title>${i}</title>${last ? '<script src="https://cdn.leaky.example/sdk.js"></script>' : ''}</head><body>
<a href="/guides/page-${String((i + 1) % 120).padStart(3, '0')}">next</a>${last ? '<a href="/guides/gone">gone</a>' : ''}
${filler.repeat(50)}</body></html>\n`,
    );
  }
  await fs.writeFile(
    path.join(site, 'index.html'),
    '<!DOCTYPE html><a href="/guides/page-000">start</a>\n',
  );
  const archive = path.join(dir, 'site.tar.gz');
  const made = spawnSync('tar', ['-czf', archive, '-C', site, '.']);
  if (made.status !== 0) throw new Error(`tar failed: ${made.stderr.toString()}`);
  await fs.rm(site, { recursive: true });
  return archive;
}

describe.concurrent('smoke: the readiness scan on worker threads', () => {
  let siteDir = '';
  let leaky: Emulator;
  beforeAll(async () => {
    siteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-large-site-'));
    const archive = await largeLeakySite(siteDir);
    leaky = await startEmulator({
      jobDurationMs: 0,
      queuedMs: 0,
      log: false,
      archiveFor: () => archive,
    });
  });
  afterAll(async () => {
    await leaky.stop();
    await fs.rm(siteDir, { recursive: true, force: true });
  });

  for (const runtime of RUNTIMES) {
    const it = runtime.node === NODE24 && node24Missing ? skipped : test;
    it(`${runtime.name}: dist/index.js reads a large site on its worker threads and finds the load in its last page`, async () => {
      const run = await runAction({
        node: runtime.node,
        inputs: {
          'api-key': leaky.keys.write,
          'base-url': leaky.baseUrl,
          domain: DOMAIN,
          path: 'site',
          'deployment-type': 'air-gapped',
          'browser-check': 'false',
          'compare-with': 'none',
        },
        env: { RUNNER_DEBUG: '1' },
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(
        /^::debug::Readiness scan: \d+ file\(s\) read on 2 threads \(\d+ on the main one\)\.$/m,
      );
      expect(run.stdout).not.toContain('a worker thread failed');
      expect(run.stdout).toContain('cdn.leaky.example (1)');
      expect(run.stdout).toMatch(/read 121 files \(121 pages\)/);
      expect(run.stdout).toMatch(/1 internal link/);
    });
  }

  test('dist/cli/index.js reads a large site on its own worker threads', async () => {
    const cwd = await fs.mkdtemp(path.join(siteDir, 'cli-'));
    const run = await runCommand(
      [
        process.execPath,
        path.join(ROOT, 'dist', 'cli', 'index.js'),
        'export',
        '--base-url',
        leaky.baseUrl,
        '--domain',
        DOMAIN,
        '--path',
        'site',
        '--deployment-type',
        'air-gapped',
        '--browser-check',
        'false',
        '--compare-with',
        'none',
        '--verbose',
      ],
      { cwd, env: { ADMIN_API_KEY: leaky.keys.write, TMPDIR: cwd } },
    );
    const output = run.stdout + run.stderr;
    expect(run.code, output).toBe(1);
    expect(output).toMatch(
      /Readiness scan: \d+ file\(s\) read on 2 threads \(\d+ on the main one\)\./,
    );
    expect(output).toContain('cdn.leaky.example');
    // The reports are left in the system's temp directory, for the user to read.
    const reports = (await fs.readdir(cwd)).filter((name) => name.includes('-readiness.'));
    expect(reports.sort()).toEqual([
      `static-export-${DOMAIN}-readiness.json`,
      `static-export-${DOMAIN}-readiness.sarif`,
    ]);
  });
});
