/**
 * The readiness check at the level of the check function (on hand-made sites in a temp
 * directory) and through the in-process core against the emulator (download, extract,
 * check, put in place), without spawning dist/.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { checkReadiness } from '../../src/airgap/check.js';
import { MAX_FRAME_DEPTH } from '../../src/airgap/html.js';
import { SARIF_LIMITS } from '../../src/airgap/report-files.js';
import { findBrowser } from '../../src/airgap/browser.js';
import type { Readiness } from '../../src/airgap/findings.js';
import { type ExportConfig, parseConfig } from '../../src/config.js';
import { CancelledError } from '../../src/errors.js';
import { execute } from '../../src/main.js';
import { type ExportRecord, renderReadiness } from '../../src/report.js';
import { recordingReporter } from '../support/recording-reporter.js';
import { listTree } from '../support/action.js';
import { imageInFrames } from '../support/nested-frames.js';
import { tarOf } from '../support/archives.js';
import { writeEarlierExport } from '../support/earlier-export.js';
import { writeTree } from '../support/files.js';

const DOMAIN = 'docs.example.com';

async function tempDir(label: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `sea-${label}-`));
}

async function siteOf(files: Record<string, string>): Promise<string> {
  const root = await tempDir('site');
  await writeTree(root, files);
  return root;
}

function configFor(inputs: Record<string, string>, workspace = '/work-space'): ExportConfig {
  const config = parseConfig(
    { 'api-key': 'mint_test', domain: DOMAIN, path: 'site', 'browser-check': 'false', ...inputs },
    { workspace },
  );
  if (config.command !== 'export') throw new Error('not an export config');
  return config;
}

async function check(root: string, inputs: Record<string, string>, signal?: AbortSignal) {
  const recorded = recordingReporter();
  const record: ExportRecord = { command: 'export', domain: DOMAIN, startedAt: 0 };
  const temp = await tempDir('report');
  let error: unknown;
  try {
    await checkReadiness(root, configFor(inputs), recorded.reporter, record, {
      tempDir: temp,
      ...(signal ? { signal } : {}),
    });
  } catch (caught) {
    error = caught;
  }
  return { ...recorded, record, error, message: error instanceof Error ? error.message : '' };
}

const LEAKY_PAGE = [
  '<!doctype html>',
  '<title>Docs</title>',
  '<link rel="canonical" href="https://docs.example.com/">',
  '<script src="https://analytics.example.com/a.js"></script>',
  '<link rel="stylesheet" href="assets/site.css">',
  '<a href="https://github.com/example/docs">GitHub</a> <a href="guide">Guide</a> <a href="/missing-page">Old</a>',
  '<script>const docs = "https://react.dev/errors/"; const base = new URL("x", "http://a.com"); fetch("https://api.example.com/search?q=" + 1).catch(() => {});</script>',
].join('\n');

const LEAKY_SITE = {
  'index.html': LEAKY_PAGE,
  'guide.html':
    '<!doctype html><a href="/">Home</a> <a href="https://github.com/example/other">More</a>',
  'assets/site.css': '\n@import "https://fonts.example.com/inter.css";\n',
};

describe('checkReadiness on a hand-made site', () => {
  it('air-gapped: fails on loads (naming each host), warns once per linked host, ignores metadata and unproven script strings', async () => {
    const root = await siteOf(LEAKY_SITE);
    const result = await check(root, { 'deployment-type': 'air-gapped' });
    expect(result.message).toMatch(
      /not ready for an air-gapped deployment: its pages load from 3 host\(s\) outside the site/,
    );
    for (const host of ['analytics.example.com', 'api.example.com', 'fonts.example.com'])
      expect(result.message).toContain(host);
    expect(result.message).not.toContain('github.com');
    expect(result.message).not.toContain('react.dev');

    const errors = result.of('error');
    expect(errors.map((e) => e.annotation?.file)).toEqual(
      expect.arrayContaining([
        path.join('/work-space/site', 'index.html'),
        path.join('/work-space/site', 'assets/site.css'),
      ]),
    );
    const analytics = errors.find((e) => e.message.includes('analytics.example.com'));
    expect(analytics?.annotation).toMatchObject({
      startLine: 4,
      title: 'Loads from outside the site',
    });
    expect(analytics?.message).toContain('<script src>');
    // One warning for github.com although two pages link to it.
    const linkWarnings = result.of('warning').filter((w) => w.message.startsWith('Links to'));
    expect(linkWarnings).toHaveLength(1);
    expect(linkWarnings[0]?.message).toMatch(
      /Links to github\.com: 2 links at guide\.html:1, index\.html:6\. Readers who click these reach a dead end inside the network\./,
    );
    // Metadata (canonical) and strings with no call site (react.dev, a.com) are not findings.
    const everything = result.annotations.map((a) => a.message).join('\n');
    expect(everything).not.toMatch(/react\.dev|a\.com|docs\.example\.com/);
    expect(result.record.readiness?.metadata).toBe(1);
  });

  it('client-hosted: loads are warnings, links notices, and the step passes', async () => {
    const root = await siteOf(LEAKY_SITE);
    const result = await check(root, { 'deployment-type': 'client-hosted' });
    expect(result.error).toBeUndefined();
    expect(result.of('error')).toEqual([]);
    expect(result.of('warning').filter((w) => w.message.startsWith('Loads from'))).toHaveLength(3);
    expect(result.of('notice').map((n) => n.message)).toEqual([
      expect.stringMatching(/^Links to github\.com: 2 links/),
    ]);
  });

  it('warns, at the page and line, of frame documents nested too deep to be read', async () => {
    const root = await siteOf({
      'index.html': '<!doctype html><title>Docs</title>',
      'guides/frames.html': [
        '<!doctype html><title>Frames</title>',
        imageInFrames(MAX_FRAME_DEPTH + 1, 'https://hidden.example.com/a.png'),
        imageInFrames(MAX_FRAME_DEPTH + 3, 'https://hidden.example.com/b.png'),
        imageInFrames(2, 'https://shallow.example.com/c.png'),
      ].join('\n'),
    });
    for (const type of ['air-gapped', 'cloud']) {
      const result = await check(root, { 'deployment-type': type, 'broken-links': 'warn' });
      const warnings = result
        .of('warning')
        .filter((w) => w.annotation?.title === 'Frames not read');
      expect(warnings).toEqual([
        {
          level: 'warning',
          message: `Documents in <iframe srcdoc> nested more than ${MAX_FRAME_DEPTH} deep were not read, in 2 places (the first inside the <iframe> at guides/frames.html, line 2): what they load and link to is not checked.`,
          annotation: {
            title: 'Frames not read',
            file: path.join('/work-space/site', 'guides/frames.html'),
            startLine: 2,
          },
        },
      ]);
      // What the frames within the bound load is found as ever.
      if (type === 'air-gapped') expect(result.message).toContain('shallow.example.com');
    }
  });

  it('accepts hosts listed in allowed-hosts, exactly or by *. suffix', async () => {
    const root = await siteOf(LEAKY_SITE);
    const result = await check(root, {
      'deployment-type': 'air-gapped',
      'allowed-hosts': 'analytics.example.com\n*.example.com\ngithub.com',
    });
    expect(result.error).toBeUndefined();
    expect(result.log()).toMatch(/nothing is loaded from outside the site/);
  });

  it('reports broken internal links with file and line for every deployment type; broken-links: fail fails the step', async () => {
    const root = await siteOf(LEAKY_SITE);
    for (const type of ['cloud', 'client-hosted', 'air-gapped']) {
      const result = await check(root, {
        'deployment-type': type,
        'allowed-hosts': '*.example.com,github.com',
      });
      const broken = result.annotations.filter((a) => a.message.startsWith('Broken link'));
      expect(broken, type).toEqual([
        {
          level: 'warning',
          message: 'Broken link /missing-page: no file of the export serves /missing-page.',
          annotation: expect.objectContaining({
            file: path.join('/work-space/site', 'index.html'),
            startLine: 6,
          }),
        },
      ]);
      expect(result.log()).toMatch(/4 internal links checked, 1 broken/);
      expect(result.record.readiness?.links.brokenCount).toBe(1);
      expect(renderReadiness(result.record.readiness as Readiness)).toMatch(
        /#### Internal links: 1 broken of 4\n\n\| File \| Line/,
      );
    }
    const failing = await check(root, { 'broken-links': 'fail' });
    expect(failing.message).toMatch(/1 internal link\(s\) lead to no file of the export/);
    expect(failing.of('error')[0]?.message).toMatch(/^Broken link \/missing-page/);
    const off = await check(root, { 'broken-links': 'off' });
    expect(off.annotations).toEqual([]);
    expect(off.record.readiness).toBeUndefined();
  });

  it('cloud checks links only: hosts outside the site are the vendor cloud’s business', async () => {
    const root = await siteOf(LEAKY_SITE);
    const result = await check(root, {});
    expect(result.error).toBeUndefined();
    expect(result.annotations.filter((a) => !a.message.startsWith('Broken link'))).toEqual([]);
    expect(result.record.readiness?.hosts).toEqual([]);
  });

  it('cloud with nothing to report leaves no report file behind and sets no output', async () => {
    const root = await siteOf({
      'index.html': '<a href="/guide.html">Guide</a>',
      'guide.html': '<a href="/">Home</a>',
    });
    const result = await check(root, {});
    expect(result.outputs).toEqual({});
    expect(result.log()).toMatch(
      /cloud check: read 2 files \(2 pages\) in .*; 2 internal links checked, 0 broken\./,
    );
    expect(result.log()).toMatch(/Serving: every internal link names its file or a directory/);
    // The check's line says 0 broken: no heading with nothing under it repeats it.
    expect(renderReadiness(result.record.readiness as Readiness)).not.toMatch(/Internal links/);
  });

  it('keeps the log lines short when a page loads from thousands of hosts', async () => {
    const hosts = Array.from({ length: 3000 }, (_, i) => `cdn${i}.example.net`);
    const root = await siteOf({
      'index.html': hosts.map((h) => `<script src="https://${h}/x.js"></script>`).join('\n'),
    });
    const result = await check(root, { 'deployment-type': 'air-gapped' });
    const last = result.of('error').at(-1)?.message ?? '';
    expect(last).toMatch(/^2992 more hosts outside the site: .* and 2942 more\. Each is listed/);
    expect(last.length).toBeLessThan(3000);
    expect(result.message).toMatch(/and 2990 more\. Remove/);
    expect(result.message.length).toBeLessThan(1500);
  });

  it('caps error annotations at 9, leaving the 10th for the failure, without dropping a host: the last one names the rest', async () => {
    const hosts = Array.from(
      { length: 25 },
      (_, i) => `cdn${String(i).padStart(2, '0')}.example.net`,
    );
    const root = await siteOf({
      'index.html': hosts.map((h) => `<script src="https://${h}/x.js"></script>`).join('\n'),
    });
    const result = await check(root, { 'deployment-type': 'air-gapped' });
    const errors = result.of('error');
    expect(errors).toHaveLength(9);
    const named = errors.map((e) => e.message).join('\n');
    for (const host of hosts) expect(named).toContain(host);
    expect(errors.at(-1)?.message).toMatch(
      /^17 more hosts outside the site: .* Each is listed in the job summary and in .*readiness\.json\./,
    );
    // The error names the first 10 and counts the rest; the summary names every one.
    for (const host of hosts.slice(0, 10)) expect(result.message).toContain(host);
    expect(result.message).toContain(`${hosts[9]} (1) and 15 more.`);
    expect(result.message).not.toContain(hosts[10] as string);
    const { renderExportSummary } = await import('../../src/report.js');
    const summary = renderExportSummary(result.record, result.message);
    for (const host of hosts) expect(summary).toContain(`| \`${host}\` | loads`);
  });

  it('writes every finding to the JSON and SARIF files named by the outputs', async () => {
    const root = await siteOf(LEAKY_SITE);
    const result = await check(root, { 'deployment-type': 'air-gapped' });
    const json = JSON.parse(
      await fs.readFile(result.outputs['findings-file'] as string, 'utf8'),
    ) as {
      findings: { host: string; role: string; file: string; line: number }[];
      brokenLinks: { count: number };
    };
    expect(json.findings.map((f) => `${f.role} ${f.host} ${f.file}:${f.line}`).sort()).toEqual([
      'link github.com guide.html:1',
      'link github.com index.html:6',
      'load analytics.example.com index.html:4',
      'load api.example.com index.html:7',
      'load fonts.example.com assets/site.css:2',
    ]);
    expect(json.brokenLinks.count).toBe(1);
    const sarif = JSON.parse(await fs.readFile(result.outputs['sarif-file'] as string, 'utf8')) as {
      version: string;
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results.map((r) => `${r.ruleId}:${r.level}`).sort()).toEqual([
      'broken-link:warning',
      'outside-link:warning',
      'outside-link:warning',
      'outside-load:error',
      'outside-load:error',
      'outside-load:error',
    ]);
  });

  it('keeps the SARIF file within what code scanning accepts, and says in the log what it leaves out', async () => {
    const hosts = SARIF_LIMITS.results + 20;
    const root = await siteOf({
      'index.html': Array.from(
        { length: hosts },
        (_, i) => `<img src="https://h${i}.example.net/x.png">`,
      ).join('\n'),
    });
    const result = await check(root, { 'deployment-type': 'air-gapped' });
    const sarif = JSON.parse(await fs.readFile(result.outputs['sarif-file'] as string, 'utf8')) as {
      runs: { results: unknown[]; properties: { resultsNotListed: number } }[];
    };
    expect(sarif.runs[0]?.results).toHaveLength(SARIF_LIMITS.results);
    expect(sarif.runs[0]?.properties.resultsNotListed).toBe(20);
    expect(result.log()).toContain(
      `SARIF: ${SARIF_LIMITS.results} results, one per URL, the most severe first; 20 more (20 findings) are left out`,
    );
  });

  it('prints the nginx configuration when links leave out .html, and names the directory trap', async () => {
    const root = await siteOf({
      'index.html': '<a href="/guides/intro">Intro</a>',
      'guides/intro.html': '<a href="/">Home</a>',
      'guides/intro/__next._tree.txt': '0:{}\n',
    });
    const result = await check(root, {});
    const serving = result.lines.find((l) => l.startsWith('Serving:'));
    expect(serving).toContain(
      '1 internal link(s) leave out ".html" (e.g. /guides/intro in index.html is served by guides/intro.html)',
    );
    expect(serving).toContain('a server that tries the directory first answers 403');
    expect(serving).toContain('try_files $uri $uri.html $uri/ =404;');
  });
});

describe('the in-process core against the emulator', () => {
  let generated: Emulator;
  let leaky: Emulator;
  beforeAll(async () => {
    generated = await startEmulator({ log: false, jobDurationMs: 0, queuedMs: 0, pageCount: 6 });
    const archive = await tarOf(
      Object.entries(LEAKY_SITE).map(([name, content]) => ({ name, content })),
    );
    leaky = await startEmulator({
      log: false,
      jobDurationMs: 0,
      queuedMs: 0,
      archiveFor: () => archive,
    });
  });
  afterAll(async () => {
    await generated.stop();
    await leaky.stop();
  });

  async function run(emulator: Emulator, inputs: Record<string, string>) {
    const workspace = await tempDir('workspace');
    await writeEarlierExport(path.join(workspace, 'site'), { 'previous.html': 'previous export' });
    const recorded = recordingReporter();
    const outcome = await execute(
      {
        'api-key': emulator.keys.write,
        'base-url': emulator.baseUrl,
        domain: DOMAIN,
        path: 'site',
        'browser-check': 'false',
        ...inputs,
      },
      { workspace, tempDir: path.join(workspace, '.temp') },
      recorded.reporter,
    );
    return { ...recorded, outcome, site: path.join(workspace, 'site') };
  }

  it("passes the emulator's generated site for air-gapped, with the report files as outputs", async () => {
    const result = await run(generated, { 'deployment-type': 'air-gapped' });
    expect(result.outcome.error).toBeUndefined();
    expect(result.log()).toMatch(
      /air-gapped check: read \d+ files \(6 pages\) in .*; nothing is loaded from outside the site; \d+ internal links checked, 0 broken\./,
    );
    expect(result.outputs['findings-file']).toMatch(/readiness\.json$/);
    expect(await fs.readdir(result.site)).not.toContain('previous.html');
  });

  it('keeps the report of each step that checks the same domain in one job', async () => {
    // One job: RUNNER_TEMP is shared by its steps, GITHUB_ACTION names each.
    const workspace = await tempDir('workspace');
    const runnerTemp = path.join(workspace, '.temp');
    const step = async (id: string | undefined, site: string) => {
      const recorded = recordingReporter();
      const outcome = await execute(
        {
          'api-key': leaky.keys.write,
          'base-url': leaky.baseUrl,
          domain: DOMAIN,
          path: site,
          'deployment-type': 'client-hosted',
          'browser-check': 'false',
        },
        { workspace, tempDir: runnerTemp, ...(id !== undefined ? { stepId: id } : {}) },
        recorded.reporter,
      );
      expect(outcome.error).toBeUndefined();
      return recorded.outputs;
    };
    const plain = path.join(runnerTemp, `static-export-${DOMAIN}-readiness`);
    const first = await step('staging', 'staging-site');
    const second = await step('production', 'production-site');
    const unnamed = await step('__your-org_static-export-action_2', 'third-site');
    expect([first, second, unnamed].map((outputs) => outputs['findings-file'])).toEqual([
      `${plain}.json`,
      `${plain}-production.json`,
      `${plain}-your-org_static-export-action_2.json`,
    ]);
    expect(second['sarif-file']).toBe(`${plain}-production.sarif`);
    const report = async (file: string | undefined) =>
      JSON.parse(await fs.readFile(file as string, 'utf8')) as { deploymentType: string };
    expect((await report(first['findings-file'])).deploymentType).toBe('client-hosted');
    expect(await fs.readdir(runnerTemp)).toHaveLength(6);
    // The CLI has no steps: the next run of a domain replaces its report, as documented.
    const cli = await step(undefined, 'cli-site');
    expect(cli['findings-file']).toBe(`${plain}.json`);
  });

  it('fails air-gapped on a leaky site and leaves path as it was', async () => {
    const result = await run(leaky, { 'deployment-type': 'air-gapped' });
    expect(result.outcome.error).toBeInstanceOf(Error);
    expect((result.outcome.error as Error).message).toMatch(/analytics\.example\.com \(1\)/);
    expect(await listTree(result.site)).toEqual(['previous.html']);
  });

  it('checks the tree the extraction wrote as the disk has it: an empty directory is still a trap', async () => {
    const archive = await tarOf([
      { name: 'index.html', content: '<a href="/guides/intro">Intro</a> <a href="/gone">Gone</a>' },
      { name: 'guides/intro.html', content: '<a href="/">Home</a>' },
      { name: 'guides/intro/', type: 'directory' },
      { name: 'latest.html', type: 'symlink', linkname: 'index.html' },
    ]);
    const trap = await startEmulator({
      log: false,
      jobDurationMs: 0,
      queuedMs: 0,
      archiveFor: () => archive,
    });
    try {
      const result = await run(trap, {});
      expect(result.outcome.error).toBeUndefined();
      const summary = (lines: string[]) =>
        lines
          .filter((l) => /^(Serving|cloud check):/.test(l))
          .map((l) => l.replace(/ in [\d.]+ ?m?s;/, ';'));
      const fromExtraction = summary(result.lines);
      expect(fromExtraction.join('\n')).toContain('a server that tries the directory first');
      expect(fromExtraction.join('\n')).toContain('1 broken');
      // The same check on the tree listed from disk says the same.
      expect(summary((await check(result.site, {})).lines)).toEqual(fromExtraction);
    } finally {
      await trap.stop();
    }
  });
});

const browser = findBrowser();
const browserMissing = browser ? undefined : 'no Chromium (apt install chromium-headless-shell)';
if (browserMissing && process.env.CI !== 'true')
  console.log(`Skipping the browser pass tests: ${browserMissing}.`);

describe.skipIf(!browser && process.env.CI !== 'true')('the headless browser pass', () => {
  const dynamic = {
    'index.html':
      '<!doctype html><title>Docs</title><link rel="stylesheet" href="/assets/site.css"><img src="/missing.png"><a href="/guide">Guide</a>' +
      "<script>fetch(['https:', '', 'search.example.com', 'q'].join('/')).catch(() => {});</script>",
    'guide.html': '<!doctype html><script type="module">import("/assets/app.js")</script>',
    'assets/site.css': 'body { color: black }',
    'assets/app.js': "new Image().src = ['https:', '', 'pixel.example.org', 'p.gif'].join('/');",
  };

  it('serves the site on loopback with its URL rules and catches requests built at run time, with the page that made them', async () => {
    const root = await siteOf(dynamic);
    const result = await check(root, { 'deployment-type': 'air-gapped', 'browser-check': 'true' });
    expect(result.message).toMatch(
      /load from 2 host\(s\) outside the site: (pixel\.example\.org|search\.example\.com) \(1\), (pixel\.example\.org|search\.example\.com) \(1\)/,
    );
    const search = result.of('error').find((e) => e.message.includes('search.example.com'));
    expect(search?.message).toMatch(/requested while loading index\.html/);
    const pixel = result.of('error').find((e) => e.message.includes('pixel.example.org'));
    expect(pixel?.message).toMatch(/requested while loading guide\.html/);
    // /assets/site.css and /assets/app.js resolve against the site, not the filesystem root.
    const missing = result.of('warning').filter((w) => w.message.startsWith('While loading pages'));
    expect(missing.map((m) => m.message)).toEqual([
      'While loading pages the browser requested 1 path that no file of the export serves: /missing.png (from /).',
    ]);
    expect(result.log()).toMatch(
      /Headless browser pass \(.+\): loaded 2 page\(s\) served with the export's URL rules; 2 request\(s\) to 2 host\(s\) outside the site were blocked; 1 request\(s\) for missing files\./,
    );
  });

  it('serves a folder asked for without its slash as nginx does, so its page finds its files', async () => {
    const root = await siteOf({
      // A frame of the folder's page, as readers reach it from a link without the slash.
      'index.html': '<!doctype html><iframe src="/guides/setup"></iframe><img src="/img/100%.png">',
      'guides/setup/index.html': '<!doctype html><img src="diagram.png">',
      'guides/setup/diagram.png': 'png',
      'img/100%.png': 'png',
    });
    const result = await check(root, { 'deployment-type': 'air-gapped', 'browser-check': 'true' });
    // Not /guides/diagram.png; and a lone % is refused, as nginx answers it 400.
    const missing = result.of('warning').filter((w) => w.message.startsWith('While loading pages'));
    expect(missing.map((m) => m.message)).toEqual([
      'While loading pages the browser requested 1 path that no file of the export serves: /img/100%.png (from /).',
    ]);
  });

  it('stops when the run is cancelled, leaving no browser behind', async () => {
    const root = await siteOf({
      'index.html':
        '<!doctype html><script>setInterval(() => fetch("/tick").catch(() => {}), 50)</script>',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new CancelledError('cancelled by the test')), 1500);
    const started = Date.now();
    const result = await check(
      root,
      { 'deployment-type': 'air-gapped', 'browser-check': 'true' },
      controller.signal,
    );
    expect(result.error).toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
