import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionsFromArgs, parseDurationMs, parseSizeBytes } from '../../emulator/cli-args.js';
import { call, completedBundle, download, startTestEmulator } from './helpers.js';
import type { TestEmulator } from './helpers.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(() => emulator.stop());
beforeEach(() => {
  emulator.faults.clear();
  emulator.requests.length = 0;
});

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${emulator.baseUrl}/__emulator/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};

describe('control endpoints', () => {
  it('adds, lists and clears fault rules without auth', async () => {
    expect(
      (await control('POST', 'faults', { route: 'export.get', status: 503, times: 'Infinity' }))
        .status,
    ).toBe(201);
    expect(
      (await control('POST', 'faults', { route: 'store.get', cutAfterBytes: 10 })).json,
    ).toEqual({
      pending: 2,
    });
    expect(((await control('GET', 'faults')).json as unknown[]).length).toBe(2);
    for (let i = 0; i < 3; i++) {
      expect((await call(emulator, 'GET', '/v1/static-export/jobs/se_1')).status).toBe(503);
    }
    expect((await control('DELETE', 'faults')).status).toBe(204);
    expect(emulator.faults.pending).toHaveLength(0);
    expect((await call(emulator, 'GET', '/v1/static-export/jobs/se_1')).status).toBe(404);
  });

  it('rejects malformed fault rules with 400', async () => {
    for (const rule of [
      { route: 'nope' },
      { route: 'export.get', status: 'x' },
      { route: '*', bogus: 1 },
      // A handled request needs an answer to replace; the store's is the archive itself.
      { route: 'agent.create', handledFirst: true },
      { route: 'store.get', status: 503, handledFirst: true },
    ]) {
      const response = await control('POST', 'faults', rule);
      expect(response.status).toBe(400);
      expect((response.json as { error: string }).error).toMatch(/Invalid fault rule/);
    }
    expect(emulator.faults.pending).toHaveLength(0);
  });

  it('refuses a Retry-After without an answer to carry it, which would change nothing', async () => {
    const alone = { route: 'export.start', retryAfter: '2' } as const;
    const response = await control('POST', 'faults', alone);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(
      /^Invalid fault rule: .*retryAfter is a header of the rule's answer: give the status/,
    );
    expect(() => emulator.faults.add(alone)).toThrow(/retryAfter is a header of the rule's answer/);
    expect(emulator.faults.pending).toHaveLength(0);
    // With a status it has an answer to go out with.
    emulator.faults.add({ ...alone, status: 503 });
    const faulted = await call(emulator, 'POST', '/v1/static-export/jobs', {
      body: { domain: 'docs.example.com' },
    });
    expect([faulted.status, faulted.headers.get('retry-after')]).toEqual([503, '2']);
  });

  it('advances the clock', async () => {
    const before = emulator.clock.now();
    const response = await control('POST', 'clock/advance', { ms: 60_000 });
    expect(response.status).toBe(200);
    expect((response.json as { nowMs: number }).nowMs - before).toBeGreaterThanOrEqual(60_000);
    expect((await control('POST', 'clock/advance', { ms: -1 })).status).toBe(400);
    expect((await control('GET', 'nothing')).status).toBe(404);
  });

  it('lists recorded requests of both servers, never the control calls', async () => {
    const bundle = await completedBundle(emulator);
    await download(bundle.bundleUrl);
    await control('GET', 'faults');
    const response = await control('GET', 'requests');
    const recorded = response.json as {
      server: string;
      method: string;
      path: string;
      route: string;
    }[];
    expect(recorded.map((r) => [r.server, r.method, r.route])).toEqual([
      ['api', 'POST', 'export.start'],
      ['api', 'POST', 'export.bundle'],
      ['store', 'GET', 'store.get'],
    ]);
    expect(recorded.every((r) => !r.path.includes('?') && !r.path.includes('__emulator'))).toBe(
      true,
    );
    expect(emulator.requests[2]).toMatchObject({ status: 200, hasAuthorization: false });
    expect(emulator.requests[0]).toMatchObject({ status: 202, hasAuthorization: true });
    expect(emulator.requests[0]?.at).toBeLessThanOrEqual(emulator.clock.now());
  });
});

describe('request log', () => {
  it('writes one line per request, like `[emulator] POST /v1/static-export/jobs 202 3ms`', async () => {
    const lines = emulator.logLines;
    lines.length = 0;
    const bundle = await completedBundle(emulator);
    await download(bundle.bundleUrl);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines[0]).toMatch(/^\[emulator\] POST \/v1\/static-export\/jobs 202 \d+ms$/);
    expect(lines[2]).toMatch(
      /^\[emulator\] store GET \/static-exports\/exports\/se_\w+\/docs\.example\.com\.tar\.gz 200 \d+ms$/,
    );
    expect(lines).toHaveLength(3);
  });

  it('never logs or records a key, wherever a client puts it', async () => {
    const lines = emulator.logLines;
    lines.length = 0;
    const { write, read } = emulator.keys;
    await call(emulator, 'GET', `/v1/static-export/jobs/${write}`);
    await call(emulator, 'GET', `/v1/static-export/jobs/x?key=${read}`, { key: 'read' });
    await call(emulator, 'POST', '/v2/agent/demo-project/job', {
      key: `Bearer ${write}`,
      body: { prompt: write },
    });
    await call(emulator, 'GET', '/v1/static-export/jobs/x', { key: 'Bearer mint_someoneelseskey' });
    emulator.faults.add({ route: 'export.get', echoAuthorization: true, body: 'html' });
    const echoed = await call(emulator, 'GET', '/v1/static-export/jobs/x');
    expect(echoed.text).toContain(write);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = lines.join('\n') + JSON.stringify(emulator.requests);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const secret of [write, read, 'mint_someoneelseskey'])
      expect(logged).not.toContain(secret);
  });
});

describe('command line', () => {
  it('parses the documented flags', () => {
    expect(parseDurationMs('4s')).toBe(4000);
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs('2m')).toBe(120_000);
    expect(parseSizeBytes('256MB')).toBe(256 * 1024 * 1024);
    expect(parseSizeBytes('1024')).toBe(1024);
    const options = optionsFromArgs(
      [
        '--port 4010 --store-port 4011 --job-duration 4s --pages 24 --format zip',
        '--archive-size 256MB --files 20000 --link-lifetime 3600 --variant inline-bundle',
        '--time-scale 10 --progress stall-then-jump --quiet',
      ]
        .join(' ')
        .split(' '),
    );
    expect(options).toEqual({
      port: 4010,
      storePort: 4011,
      jobDurationMs: 4000,
      pageCount: 24,
      archiveFormat: 'zip',
      archiveSizeBytes: 256 * 1024 * 1024,
      fileCount: 20000,
      linkLifetimeSec: 3600,
      variant: 'inline-bundle',
      timeScale: 10,
      progressProfile: 'stall-then-jump',
      log: false,
    });
    expect(() => optionsFromArgs(['--format', 'rar'])).toThrow(/tar\.gz, zip/);
    expect(() => optionsFromArgs(['--unknown'])).toThrow();
  });

  /** Starts the emulator's command line; its banner's lines as they come, and its address. */
  async function startCli(command: string, args: string[]) {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const seen: string[] = [];
    const waiting: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      seen.push(line);
      for (const wait of waiting.filter((w) => w.test(line))) wait.resolve(line);
    });
    const lineMatching = (test: (line: string) => boolean): Promise<string> =>
      new Promise((resolve) => {
        const earlier = seen.find(test);
        if (earlier !== undefined) resolve(earlier);
        else waiting.push({ test, resolve });
      });
    await lineMatching((line) => line.startsWith('Control:'));
    const baseUrl = /Admin API:\s+(\S+)/.exec(seen.join('\n'))?.[1] ?? '';
    return { child, seen, lineMatching, baseUrl };
  }

  it('prints the URLs and keys, logs requests and stops cleanly on SIGTERM', async () => {
    const { child, seen, lineMatching, baseUrl } = await startCli(process.execPath, [
      '--import',
      'tsx',
      'emulator/cli.ts',
      '--port',
      '0',
      '--pages',
      '3',
    ]);
    const banner = seen.join('\n');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner).toMatch(/Object store:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(banner).toContain('mint_emulatorwritekey0001');
    const response = await fetch(`${baseUrl}/v1/static-export/jobs`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mint_emulatorwritekey0001',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ domain: 'docs.example.com' }),
    });
    expect(response.status).toBe(202);
    const logged = await lineMatching((line) => line.startsWith('[emulator]'));
    expect(logged).toMatch(/^\[emulator\] POST \/v1\/static-export\/jobs 202 \d+ms$/);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  /** Runs the command line to its exit; its code and what it printed on stderr. */
  async function runCliToExit(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stderr };
  }

  it('names a flag value out of range with the usage, not a stack trace', async () => {
    const { code, stderr } = await runCliToExit(['--pages', '0', '--quiet']);
    expect(code).toBe(2);
    expect(stderr).toContain('pageCount must be >= 1');
    expect(stderr).toContain('Usage:');
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('says which port is taken, without a stack trace', async () => {
    const taken = await startTestEmulator();
    try {
      const port = new URL(taken.baseUrl).port;
      const { code, stderr } = await runCliToExit(['--port', port, '--quiet']);
      expect(code).toBe(1);
      expect(stderr).toContain(`127.0.0.1:${port} is already in use`);
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      await taken.stop();
    }
  });

  it('stops with `npm run emulator` when npm alone is signalled, as `kill $!` does in a script', async () => {
    const { child, baseUrl } = await startCli('npm', [
      'run',
      '--silent',
      'emulator',
      '--',
      '--port',
      '0',
    ]);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    child.kill('SIGTERM');
    await once(child, 'exit');
    // Before, npm exited and the emulator went on holding its port.
    let answered = true;
    for (let i = 0; i < 50 && answered; i += 1) {
      answered = await fetch(baseUrl).then(
        () => true,
        () => false,
      );
      if (answered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answered).toBe(false);
  });
});
