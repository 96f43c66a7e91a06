import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarOf, zipOf } from '../support/archives.js';
import {
  type CaseRun,
  errorLines,
  exists,
  expectNoKey,
  type Harness,
  listTree,
  sha256File,
  startHarness,
  treeDigest,
} from '../support/in-process.js';
import { writeEarlierExport } from '../support/earlier-export.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ pageCount: 12 });
});
afterAll(async () => {
  await harness.stop();
});

const DOMAIN = 'docs.example.com';

describe('export, end to end against the emulator', () => {
  it('exports, downloads and extracts a tar.gz site, and sets every output', async () => {
    const run = await harness.run({ domain: DOMAIN, path: 'site' });
    expect(run.code, run.stdout).toBe(0);
    const site = path.join(run.workspace, 'site');
    const files = await listTree(site);
    expect(files).toContain('index.html');
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(12);
    expect(run.outputs).toMatchObject({
      'job-id': expect.stringMatching(/^se_[0-9a-f]{16}$/),
      status: 'completed',
      'page-count': '12',
      'bundle-url': expect.stringContaining('X-Amz-Signature='),
      'expires-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      path: site,
    });
    expect(Number(run.outputs['size-bytes'])).toBeGreaterThan(0);
    // The outputs the user needs are set before the long wait: job-id comes first.
    expect(Object.keys(run.outputs)[0]).toBe('job-id');
    expect(run.summary).toContain(`Static export of ${DOMAIN}`);
    expect(run.summary).toContain(run.outputs.sha256);
    // Shown relative to the workspace.
    expect(run.summary).toContain('| Site | `site` |');
    // No temporary file is left behind, and nothing else was written beside the site.
    expect(await fs.readdir(run.tempDir)).toEqual([]);
    expect(await fs.readdir(run.workspace)).toEqual(['site']);
    // The storage never saw an Authorization header.
    const storeRequests = harness.emulator.requests.filter((r) => r.server === 'store');
    expect(storeRequests.length).toBeGreaterThan(0);
    expect(storeRequests.every((r) => !r.hasAuthorization)).toBe(true);
  });

  it('prints one line per change while polling, not one per poll, inside log groups', async () => {
    // Queued for 3 s, polled every 0.5 s: six polls see the same state.
    const queued = await startHarness({ pageCount: 12, queuedMs: 3000, jobDurationMs: 5000 });
    try {
      const run = await queued.run({ domain: DOMAIN, path: 'site', 'poll-interval': '0.5s' });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/::group::Starting the static export of docs\.example\.com/);
      expect(run.stdout).toMatch(/::group::Waiting for export job se_/);
      const statusLines = run.stdout.split('\n').filter((l) => /^\[ *[\d.]+m?s\] /.test(l));
      const states = statusLines.map((l) =>
        l.replace(/^\[[^\]]*\] /, '').replace(/ · about .*/, ''),
      );
      expect(states[0]).toMatch(/^queued/);
      expect(states.at(-1)).toBe('completed · 100% · 12 pages');
      // No state twice in a row, and fewer lines than polls.
      for (const [i, state] of states.entries()) if (i > 0) expect(state).not.toBe(states[i - 1]);
      const polls = queued.emulator.requests.filter((r) => r.route === 'export.get');
      expect(statusLines.length).toBeLessThan(polls.length);
      // Polled on the fixed schedule: 0.5 s apart on the clock the job runs on.
      const gaps = polls.slice(1).map((r, i) => r.at - (polls[i] as { at: number }).at);
      expect(new Set(gaps)).toEqual(new Set([500]));
    } finally {
      await queued.stop();
    }
  });

  it('extracts a zip bundle the same way (format read from the bytes)', async () => {
    const zipHarness = await startHarness({ pageCount: 5, archiveFormat: 'zip' });
    try {
      const run = await zipHarness.run({ domain: DOMAIN, path: 'site' });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain('from the zip archive');
      expect(
        (await listTree(path.join(run.workspace, 'site'))).filter((f) => f.endsWith('.html')),
      ).toHaveLength(5);
    } finally {
      await zipHarness.stop();
    }
  });

  it('uses the link a completed job carries (project-scoped variant) without a bundle call', async () => {
    const inline = await startHarness({ variant: 'inline-bundle', pageCount: 4 });
    try {
      const run = await inline.run({ domain: DOMAIN, path: 'site', 'project-id': 'demo-project' });
      expect(run.code, run.stdout).toBe(0);
      expect(inline.emulator.requests.some((r) => r.route === 'export.bundle')).toBe(false);
      // The published route first; the project-scoped one only once that answered 404.
      expect(inline.emulator.requests.slice(0, 2).map((r) => `${r.path} ${r.status}`)).toEqual([
        '/v1/static-export/jobs 404',
        '/v1/static-export/demo-project/jobs 202',
      ]);
      expect(run.stdout).toMatch(
        /the project-scoped ones \(\/v1\/static-export\/demo-project\/jobs\) answered/,
      );
      expect(run.outputs['bundle-url']).toContain('X-Amz-Signature=');
    } finally {
      await inline.stop();
    }
  });

  it('stops after the link with download: false and writes nothing into the workspace', async () => {
    const run = await harness.run({ domain: DOMAIN, download: 'false' });
    expect(run.code).toBe(0);
    expect(run.outputs['bundle-url']).toContain('X-Amz-Signature=');
    expect(run.outputs.sha256).toBeUndefined();
    expect(await fs.readdir(run.workspace)).toEqual([]);
  });

  it('keeps the verified archive with extract: false', async () => {
    const run = await harness.run({ domain: DOMAIN, path: 'bundle', extract: 'false' });
    expect(run.code, run.stdout).toBe(0);
    const archive = run.outputs['archive-path'] as string;
    expect(archive).toBe(path.join(run.workspace, 'bundle', `${DOMAIN}.tar.gz`));
    expect(await sha256File(archive)).toBe(run.outputs.sha256);
    expect((await fs.stat(archive)).size).toBe(Number(run.outputs['size-bytes']));
  });

  it('writes a Helm values file with the link and the release version', async () => {
    const run = await harness.run({
      domain: DOMAIN,
      download: 'false',
      'helm-values-file': 'deploy/values.yaml',
      'release-version': 'v1.2.3',
    });
    expect(run.code).toBe(0);
    const file = run.outputs['helm-values-file'] as string;
    expect(file).toBe(path.join(run.workspace, 'deploy', 'values.yaml'));
    const yaml = await fs.readFile(file, 'utf8');
    expect(yaml).toContain('staticExport:\n  enabled: true\n');
    expect(yaml).toContain(`  bundleUrl: ${JSON.stringify(run.outputs['bundle-url'])}\n`);
    expect(yaml).toContain('  version: "v1.2.3"\n');
  });

  it('a Helm values file that cannot be written after the swap: the error says the new export is in path', async () => {
    const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-helm-after-swap-'));
    const values = path.join(workspace, 'deploy', 'values.yaml');
    const run = await harness.run(
      { domain: DOMAIN, path: 'site', 'helm-values-file': 'deploy/values.yaml' },
      {
        workspace,
        // The site is in path by then: a directory takes the values file's place.
        onLine: (line) => {
          if (line.startsWith('Put the exported site in ')) mkdirSync(values, { recursive: true });
        },
      },
    );
    expect(run.code).toBe(1);
    const site = path.join(workspace, 'site');
    expect(await exists(path.join(site, 'index.html'))).toBe(true);
    expect(errorLines(run)).toHaveLength(1);
    expect(errorLines(run)[0]).toMatch(
      new RegExp(
        `^::error::Could not write ${values}: .* The new export was already in place in ${site}, and stays there\\.$`,
      ),
    );
    expect(run.summary).toContain(`The new export was already in place in ${site}`);
  });

  it('defaults staticExport.version to the commit SHA in a workflow', async () => {
    const sha = 'a'.repeat(40);
    const run = await harness.run(
      { domain: DOMAIN, download: 'false', 'helm-values-file': 'values.yaml' },
      { commitSha: sha },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(await fs.readFile(path.join(run.workspace, 'values.yaml'), 'utf8')).toContain(
      `version: "${sha}"`,
    );
  });

  it('asks the runner to mask the API key, so later steps of the job cannot print it', async () => {
    const run = await harness.run({ domain: DOMAIN, download: 'false' });
    expect(run.code).toBe(0);
    const key = harness.emulator.keys.write;
    expect(run.masked).toContain(key);
    expect(run.stdout).toContain(`::add-mask::${key}`);
  });

  it('masks the bundle link when asked', async () => {
    const run = await harness.run({ domain: DOMAIN, download: 'false', 'mask-bundle-url': 'true' });
    expect(run.code).toBe(0);
    const url = run.outputs['bundle-url'] as string;
    expect(run.masked).toContain(url);
    // Workflow commands escape % as %25; the runner decodes it before masking.
    expect(run.stdout).toContain(`::add-mask::${url.replace(/%/g, '%25')}`);
    expect(run.summary).not.toContain(url);
    expect(run.summary).toContain('(masked)');
  });

  it('with mask-bundle-url, leaves no line of the log naming where the link points', async () => {
    /** The log as the runner shows it: every value asked to be masked replaced by ***. */
    const shown = (run: { stdout: string; masked: string[] }) =>
      [...run.masked]
        .sort((a, b) => b.length - a.length)
        .reduce((log, value) => log.split(value).join('***'), run.stdout)
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n');
    const inputs = { domain: DOMAIN, path: 'site', 'mask-bundle-url': 'true' };
    const run = await harness.run(inputs);
    expect(run.code, run.stdout).toBe(0);
    const link = new URL(run.outputs['bundle-url'] as string);
    expect(run.stdout).toMatch(
      /^Bundle link masked \(`mask-bundle-url`\), [\d.]+ KB, valid until \d{4}-\d\d-\d\dT\S+\.$/m,
    );
    expect(run.stdout).toMatch(/^::debug::GET /m);
    for (const part of [link.host, link.pathname]) expect(shown(run)).not.toContain(part);

    harness.emulator.faults.add({ route: 'store.get', reset: true, times: Infinity });
    let failed;
    try {
      failed = await harness.run(inputs);
    } finally {
      harness.emulator.faults.clear();
    }
    expect(failed.code).toBe(1);
    expect(errorLines(failed)[0]).toMatch(
      /^::error::The bundle download failed \d+ times in a row/,
    );
    for (const part of [link.host, link.pathname]) expect(shown(failed)).not.toContain(part);
  });

  it('fails with the API error text when the job fails, leaving no site', async () => {
    const run = await harness.run({ domain: 'fail.example.com', path: 'site' });
    expect(run.code).toBe(1);
    expect(run.outputs.status).toBe('failed');
    expect(errorLines(run)).toHaveLength(1);
    expect(errorLines(run)[0]).toMatch(/^::error::Export job se_\w+ failed on the server: .+/);
    expect(await exists(path.join(run.workspace, 'site'))).toBe(false);
    expect(run.summary).toContain('failed');
  });

  it('explains a refused key (401) and a read-only key (403)', async () => {
    const bad = await harness.run({ 'api-key': 'mint_unknownkey000000000', domain: DOMAIN });
    expect(bad.code).toBe(1);
    expect(errorLines(bad)[0]).toMatch(/HTTP 401.*api-key/);
    expectNoKey(bad, 'mint_unknownkey000000000');

    const readOnly = await harness.run({ 'api-key': harness.emulator.keys.read, domain: DOMAIN });
    expect(readOnly.code).toBe(1);
    expect(errorLines(readOnly)[0]).toMatch(/HTTP 403.*write scope/);
  });

  it('refuses bad inputs before any request', async () => {
    const before = harness.emulator.requests.length;
    const run = await harness.run({ domain: 'https://docs.example.com/', timeout: 'soon' });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(/^::error::Invalid input domain: must be a bare hostname/),
      expect.stringMatching(/^::error::Invalid input timeout: must be a duration/),
    ]);
    expect(harness.emulator.requests.length).toBe(before);
  });

  it('asks for a fresh link when the storage says the link expired', async () => {
    harness.emulator.faults.add({ route: 'store.get', expireLink: true });
    const run = await harness.run({ domain: DOMAIN, path: 'site' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/expired.*requesting a fresh bundle link/);
    const jobBundleCalls = harness.emulator.requests.filter(
      (r) => r.route === 'export.bundle' && r.path.includes(run.outputs['job-id'] as string),
    );
    expect(jobBundleCalls).toHaveLength(2);
  });

  it('waits out a storage that rate-limits past the outage budget, a second or more each time', async () => {
    // S3 throttles with 503 SlowDown; the emulator's store answers a 503 fault so.
    harness.emulator.faults.add({ route: 'store.get', status: 503, times: 45 });
    const run = await harness.run({ domain: DOMAIN, path: 'site', timeout: '30m' });
    expect(run.code, run.stdout).toBe(0);
    const waits = [
      ...run.stdout.matchAll(/HTTP 503 \(SlowDown\b.*: rate limited, retrying in (\d+\.\d)s\./g),
    ].map((m) => Number(m[1]));
    expect(waits).toHaveLength(45);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1);
    // Longer in all than the five minutes after which an outage is given up.
    expect(waits.reduce((sum, s) => sum + s, 0)).toBeGreaterThan(300);
  });

  it('refuses a bundle link that holds the API key, before sending it to the storage', async () => {
    const { keys, storeUrl } = harness.emulator;
    for (const key of [keys.write, encodeURIComponent(keys.write)]) {
      harness.emulator.faults.add({
        route: 'export.bundle',
        status: 200,
        body: JSON.stringify({ bundleUrl: `${storeUrl}/exports/site.tar.gz?token=${key}` }),
      });
      const before = harness.emulator.requests.length;
      const run = await harness.run({ domain: DOMAIN, path: 'site' });
      expect(run.code).toBe(1);
      expect(errorLines(run)[0]).toMatch(
        /The API returned a bundle link that holds the API key: refusing to send the key to the storage host\./,
      );
      const later = harness.emulator.requests.slice(before);
      expect(later.filter((r) => r.server === 'store')).toEqual([]);
    }
  });

  it('checks a plain tar against the storage ETag while extracting it: a byte changed on the way fails', async () => {
    const archive = await tarOf(
      [
        { name: 'index.html', content: '<!doctype html><title>Docs</title><p>Welcome.</p>' },
        { name: 'guides/intro.html', content: '<!doctype html><title>Intro</title>' },
      ],
      false,
    );
    const plain = await startHarness({ archiveFor: () => archive });
    try {
      const intact = await plain.run({ domain: DOMAIN, path: 'site' });
      expect(intact.code, intact.stdout).toBe(0);
      expect(intact.stdout).toMatch(/Downloaded .*, sha256 \w+ \(matches the storage ETag\)\./);
      // In the first file's bytes, past its 512-byte header: the tar itself cannot tell.
      plain.emulator.faults.add({ route: 'store.get', flipByteAt: 520 });
      const run = await plain.run({ domain: DOMAIN, path: 'site' });
      expect(run.code).toBe(1);
      expect(errorLines(run)[0]).toMatch(
        /does not match the storage's checksum \(ETag \w+, got MD5 \w+\): the transfer was corrupted/,
      );
      expect(await fs.readdir(run.workspace)).toEqual([]);
    } finally {
      await plain.stop();
    }
  });

  it('resumes a cut download with Range and gets identical files', async () => {
    const reference = await harness.run({ domain: DOMAIN, path: 'site' });
    harness.emulator.faults.add({ route: 'store.get', cutAfterBytes: 3000 });
    const run = await harness.run({ domain: DOMAIN, path: 'site' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/connection broke.*resuming/i);
    expect(await treeDigest(path.join(run.workspace, 'site'))).toEqual(
      await treeDigest(path.join(reference.workspace, 'site')),
    );
    expect(run.outputs.sha256).toBe(reference.outputs.sha256);
  });

  it('retries a proxy 502 with an HTML body at the start and a 503 while polling', async () => {
    harness.emulator.faults.add({ route: 'export.start', status: 502, body: 'html' });
    harness.emulator.faults.add({ route: 'export.get', status: 503, body: 'json' });
    const run = await harness.run({ domain: DOMAIN, download: 'false' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/HTTP 502 \(an HTML page titled "502 Bad Gateway"\).*trying again/);
    expect(run.stdout).not.toContain('<html');
  });

  it('names every input the start sends when a 400 names none of them', async () => {
    harness.emulator.faults.add({
      route: 'export.start',
      status: 400,
      body: JSON.stringify({ error: 'Invalid request body' }),
    });
    const run = await harness.run({ domain: DOMAIN, 'export-paths': 'guides/intro' });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      `::error::Could not start the static export of ${DOMAIN} (HTTP 400: Invalid request body). The service does not say which input it refuses: check \`domain\` (the bare hostname the docs are served at, such as docs.example.com), \`docs-version\` (when set, a version the site publishes) and \`export-paths\` (when set, page paths such as guides/intro).`,
    ]);
  });

  it('fails with a timeout message naming the job when the export takes too long', async () => {
    const slow = await startHarness({ jobDurationMs: 60_000 });
    try {
      const run = await slow.run({ domain: DOMAIN, timeout: '2s' });
      expect(run.code).toBe(1);
      expect(errorLines(run)[0]).toMatch(
        /Export job se_\w+ was still running when the 2\.0s timeout passed/,
      );
      expect(run.elapsedMs).toBe(2000);
    } finally {
      await slow.stop();
    }
  });

  it('ends the run at the timeout while a request hangs, not at the request timeout', async () => {
    const hanging = await startHarness();
    try {
      hanging.emulator.faults.add({ route: 'export.start', latencyMs: 20_000 });
      let advanced = false;
      const run = await hanging.run(
        { domain: DOMAIN, timeout: '5s', 'request-timeout': '30s' },
        {
          // The start call hangs: meanwhile 6 s pass on the clock the timeout runs on.
          onLine: (line) => {
            if (advanced || !line.startsWith('::group::Starting')) return;
            advanced = true;
            setTimeout(() => hanging.clock.advance(6000), 50);
          },
        },
      );
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual([
        expect.stringMatching(
          /^::error::The export of docs\.example\.com could not be started before the 5\.0s timeout passed/,
        ),
      ]);
      expect(run.elapsedMs).toBe(6000);
    } finally {
      await hanging.stop();
    }
  });

  it('replaces the earlier export of a previous run in path', async () => {
    const first = await harness.run({ domain: DOMAIN, path: 'site' });
    const site = path.join(first.workspace, 'site');
    const second = await harness.run(
      { domain: DOMAIN, path: 'site' },
      { workspace: first.workspace },
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `Replaced the earlier export in ${site} (job ${first.outputs['job-id']}`,
    );
    expect(await fs.readdir(first.workspace)).toEqual(['site']);
  });

  it('keeps the key out of every output, debug lines included, on success and on failure', async () => {
    harness.emulator.faults.add({
      route: 'export.start',
      status: 400,
      body: 'json',
      echoAuthorization: true,
    });
    const failed = await harness.run({ domain: DOMAIN });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('::debug::');
    expect(failed.stdout).toMatch(/Bearer \*\*\*/);
    const ok = await harness.run({ domain: DOMAIN, path: 'site' });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('::debug::');
  });
});

describe('unsafe archives are refused and path is left untouched', () => {
  const cases: [string, () => Promise<Buffer>, RegExp][] = [
    ['a ../ entry', () => tarOf([{ name: '../evil.html', content: 'x' }]), /contains "\.\."/],
    ['an absolute path', () => tarOf([{ name: '/tmp/evil.html', content: 'x' }]), /absolute path/],
    [
      'a symlink outside',
      () => tarOf([{ name: 'up', type: 'symlink', linkname: '../../etc' }]),
      /outside the export/,
    ],
    [
      'a symlink then a file written through it',
      () =>
        tarOf([
          { name: 'assets', type: 'symlink', linkname: 'real' },
          { name: 'assets/app.js', content: 'x' },
        ]),
      /through the symlink/,
    ],
    [
      'a hard link outside',
      () => tarOf([{ name: 'passwd', type: 'link', linkname: '../../../etc/passwd' }]),
      /hard link/,
    ],
    ['a fifo', () => tarOf([{ name: 'pipe', type: 'fifo' }]), /fifo/],
    ['a character device', () => tarOf([{ name: 'null', type: 'character-device' }]), /device/],
    [
      'a zip symlink outside',
      () =>
        zipOf([
          { name: 'index.html', content: 'x' },
          { name: 'up', symlinkTo: '../../..' },
        ]),
      /outside the export/,
    ],
    [
      'an HTML page instead of an archive',
      async () => Buffer.from('<!doctype html><html><head><title>Sign in</title></head></html>'),
      /not an archive.*HTML page/,
    ],
    [
      'a truncated tar.gz',
      async () =>
        (await tarOf([{ name: 'a.bin', content: randomBytes(50_000) }])).subarray(0, 20_000),
      /truncated or corrupt/,
    ],
  ];

  let hostile: Harness;
  let archive: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    hostile = await startHarness({ archiveFor: () => archive });
  });
  afterAll(async () => {
    await hostile.stop();
  });

  it.each(cases)('refuses %s', async (_name, build, message) => {
    archive = await build();
    const workspace = await fs.mkdtemp(
      path.join((await import('node:os')).tmpdir(), 'sea-hostile-'),
    );
    const site = path.join(workspace, 'site');
    await writeEarlierExport(site, { 'previous.html': 'previous export' });
    const run = await hostile.run({ domain: DOMAIN, path: 'site' }, { workspace });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toHaveLength(1);
    expect(errorLines(run)[0]).toMatch(message);
    expect(await listTree(site)).toEqual(['previous.html']);
    expect(await fs.readdir(workspace)).toEqual(['site']);
    expect(await fs.readdir(run.tempDir)).toEqual([]);
  });
});

describe('reusing an export job', () => {
  it('gets a fresh link for the job-id of an earlier run without starting a new export', async () => {
    const first = await harness.run({ domain: DOMAIN, download: 'false' });
    expect(first.code).toBe(0);
    const jobId = first.outputs['job-id'] as string;
    const starts = harness.emulator.requests.filter((r) => r.route === 'export.start').length;
    const again = await harness.run({ domain: DOMAIN, 'job-id': jobId, path: 'site' });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain(`Reusing export job ${jobId}`);
    expect(again.outputs['job-id']).toBe(jobId);
    expect(harness.emulator.requests.filter((r) => r.route === 'export.start')).toHaveLength(
      starts,
    );
    expect(await listTree(path.join(again.workspace, 'site'))).toContain('index.html');
  });

  it('fails at once, naming job-id, for a job id the service does not know', async () => {
    const reads = harness.emulator.requests.filter((r) => r.route === 'export.get').length;
    const run = await harness.run({ domain: DOMAIN, 'job-id': 'se_0000000000000000' });
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        /^::error::Could not read export job se_0000000000000000 \(HTTP 404: Export job se_0000000000000000 not found\)\. .* Check `job-id` \(se_0000000000000000\): it must name an export job of this organization; leave it empty to start a new export\.$/,
      ),
    ]);
    // A job the service does not know cannot be picked up again.
    expect(errorLines(run)[0]).not.toContain('to pick it up');
    // One read: a job the run was given is not waited for.
    expect(harness.emulator.requests.filter((r) => r.route === 'export.get')).toHaveLength(
      reads + 1,
    );
    expect(run.elapsedMs).toBe(0);
  });

  it('reads again a job it started that the service does not know yet (404)', async () => {
    harness.emulator.faults.add({ route: 'export.get', status: 404, times: 2 });
    const run = await harness.run({ domain: DOMAIN, 'poll-interval': '0.5s' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /^Could not read export job se_\w+ \(HTTP 404 \(Not Found \(emulated fault\)\), just after this run created the job\): trying again in \d+ms \(attempt 2\)\.$/m,
    );
    expect(run.outputs.status).toBe('completed');
  });

  it('fails when the service still does not know the job it started after a few seconds', async () => {
    harness.emulator.faults.add({ route: 'export.get', status: 404, times: Infinity });
    let run: CaseRun;
    try {
      run = await harness.run({ domain: DOMAIN, 'poll-interval': '0.5s' });
    } finally {
      harness.emulator.faults.clear();
    }
    const jobId = run.outputs['job-id'] as string;
    expect(run.code).toBe(1);
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not read export job ${jobId} \\(HTTP 404: Not Found \\(emulated fault\\)\\): the service does not know export job ${jobId}, though it gave this run that id when the job was created [\\d.]+s before\\. Gave up after \\d+ attempts over [\\d.]+s\\. If it shows up later, \`job-id: ${jobId}\` picks it up; running again without it starts another export\\.$`,
        ),
      ),
    ]);
    expect(run.elapsedMs).toBeLessThanOrEqual(10_500);
  });
});

// A call that fails for good does not take the job with it: a rerun without job-id would
// start another export, even of one that has completed.
describe('a call about the export job that fails for good', () => {
  it('while polling (an outage past the budget) names the job-id that picks the job up', async () => {
    const long = await startHarness({ jobDurationMs: 60 * 60_000, queuedMs: 100 });
    try {
      long.emulator.faults.add({ route: 'export.get', latencyMs: 0 }); // the first read passes
      long.emulator.faults.add({ route: 'export.get', status: 503, body: 'html', times: Infinity });
      const run = await long.run({ domain: DOMAIN, download: 'false', timeout: '2h' });
      expect(run.code).toBe(1);
      const id = run.outputs['job-id'] as string;
      expect(long.emulator.exportJobs.list().map((job) => job.view.status)).toEqual(['running']);
      expect(errorLines(run)).toEqual([
        `::error::Could not read export job ${id} (HTTP 503: an HTML page titled "503 Service Unavailable"). The service or a proxy in front of it is failing; try again later. Gave up after 50 attempts over 5m 00s. Export job ${id} may still be running on the server: rerun with \`job-id: ${id}\` to pick it up without exporting again.`,
      ]);
    } finally {
      await long.stop();
    }
  });

  it('asking for the bundle of a completed job (a key revoked mid-run) names the job-id too', async () => {
    harness.emulator.faults.add({ route: 'export.bundle', status: 401 });
    const run = await harness.run({ domain: DOMAIN, download: 'false' });
    expect(run.code).toBe(1);
    const id = run.outputs['job-id'] as string;
    expect(run.outputs.status).toBe('completed');
    expect(errorLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not generate the bundle link of export job ${id} \\(HTTP 401\\b.* Export job ${id} has completed: rerun with \`job-id: ${id}\` to get its bundle without exporting again\\.$`,
        ),
      ),
    ]);
  });
});
