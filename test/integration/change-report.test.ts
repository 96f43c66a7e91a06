import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../src/changes/compare.js';
import { FINGERPRINT_SCHEME } from '../../src/changes/fingerprint.js';
import { MANIFEST_NAME, readManifest } from '../../src/deliver/manifest.js';
import { formatBytes } from '../../src/duration.js';
import { errorMessage } from '../../src/errors.js';
import {
  buildDocsSite,
  type DocsBuild,
  type DocsPage,
  docsArchive,
  newBuildId,
  samplePages,
} from '../support/docs-site.js';
import { writeEarlierExport } from '../support/earlier-export.js';
import { treeDigest } from '../support/files.js';
import { type CaseRun, type Harness, noticeLines, startHarness } from '../support/in-process.js';
import { appleDouble, tarOf, zipOf } from '../support/archives.js';

/**
 * The change report end to end through the core against the emulator: each export job
 * serves a fresh build of a Next.js-shaped site (new build id, so every page's bytes
 * differ), and the report must see only what a reader would.
 */

let harness: Harness;
/** The archive the next export job serves. */
let serving: Buffer;
let builds = 0;
/** Runs once an export job is created, before its archive is served (then cleared). */
let whileExporting: (() => Promise<void>) | undefined;
/** One runner per test: the workspace (where path lives) and RUNNER_TEMP persist between its runs. */
let workspace: string;
let tempDir: string;

beforeAll(async () => {
  harness = await startHarness({
    jobDurationMs: 1000,
    queuedMs: 0,
    archiveFor: async () => {
      const hook = whileExporting;
      whileExporting = undefined;
      await hook?.();
      return serving;
    },
  });
});
afterAll(async () => {
  await harness.stop();
});
beforeEach(async () => {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'change-report-')));
  workspace = path.join(root, 'workspace');
  tempDir = path.join(root, 'temp');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(tempDir, { recursive: true });
  return () => fs.rm(root, { recursive: true, force: true });
});

/** What a workflow command carries, as the runner shows it. */
const decode = (text: string) =>
  text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const logLines = (run: CaseRun) => run.stdout.split('\n').map(decode);
const warnings = (run: CaseRun) =>
  logLines(run)
    .filter((line) => line.startsWith('::warning'))
    .map((line) => line.replace(/^::warning[^:]*::/, ''));
const notices = (run: CaseRun) =>
  noticeLines(run).map((line) => decode(line.replace(/^::notice[^:]*::/, '')));
const failure = (run: CaseRun) =>
  run.outcome.error === undefined ? undefined : errorMessage(run.outcome.error);

const PAGES = samplePages(12);

/** Serves a new build of `pages` (a new build id every time). */
async function serve(pages: DocsPage[], extra: Partial<DocsBuild> = {}): Promise<void> {
  builds += 1;
  serving = await docsArchive({ pages, buildId: newBuildId(`build-${builds}`), ...extra });
}

/** Serves a new build of `pages` with `stub` written at `file`: a generator's redirect stub. */
async function serveWithStub(pages: DocsPage[], file: string, stub: string): Promise<void> {
  builds += 1;
  const files = buildDocsSite({ pages, buildId: newBuildId(`build-${builds}`) });
  files.set(file, stub);
  serving = await tarOf([...files].map(([name, content]) => ({ name, content })));
}

const exportInputs = (more: Record<string, string> = {}) => ({
  domain: 'docs.example.com',
  path: 'site',
  'poll-interval': '0.5s',
  ...more,
});

async function exportOnce(pages: DocsPage[], more: Record<string, string> = {}) {
  await serve(pages);
  return harness.run(exportInputs(more), { workspace, tempDir });
}

async function reportOf(file: string): Promise<ChangeReport> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as ChangeReport;
}

/** How the report names a page of samplePages. */
const pageRef = (route: string, number: number) => ({
  path: `${route}.html`,
  url: `https://docs.example.com/${route}`,
  title: `Topic ${number} - Example Docs`,
});

const edited = (pages: DocsPage[], route: string, change: (page: DocsPage) => DocsPage) =>
  pages.map((page) => (page.route === route ? change(page) : page));

describe('change report against the earlier export in path', () => {
  it('says there is nothing to compare with on a first export, and records page fingerprints', async () => {
    const run = await exportOnce(PAGES);
    expect(run.outcome.error).toBeUndefined();
    expect(run.outputs['pages-changed']).toBeUndefined();
    expect(logLines(run).join('\n')).toContain('No change report: `path`');
    expect(run.summary).toContain('#### Changes');
    expect(run.summary).toContain('holds no earlier export to compare with');
    const read = await readManifest(path.join(workspace, 'site', MANIFEST_NAME));
    if (read.kind !== 'valid') throw new Error(`manifest ${read.kind}`);
    expect(read.manifest.pageFingerprints).toEqual({ scheme: FINGERPRINT_SCHEME });
    const pages = read.manifest.files.filter((f) => f.path.endsWith('.html'));
    expect(pages).toHaveLength(PAGES.length);
    expect(pages.every((f) => f.page?.title?.endsWith(' - Example Docs'))).toBe(true);
    expect(read.manifest.files.filter((f) => !f.path.endsWith('.html')).every((f) => !f.page)).toBe(
      true,
    );
  });

  it('reports zero changes for a rebuild of the same content, though every page byte differs', async () => {
    await exportOnce(PAGES);
    const first = await readManifest(path.join(workspace, 'site', MANIFEST_NAME));
    const run = await exportOnce(PAGES);
    expect(run.outcome.error).toBeUndefined();
    const second = await readManifest(path.join(workspace, 'site', MANIFEST_NAME));
    if (first.kind !== 'valid' || second.kind !== 'valid') throw new Error('manifests');
    // The premise: a rebuild rewrites every page.
    const before = new Map(first.manifest.files.map((f) => [f.path, f.sha256]));
    const pageFiles = second.manifest.files.filter((f) => f.path.endsWith('.html'));
    expect(pageFiles.every((f) => before.get(f.path) !== f.sha256)).toBe(true);

    expect(run.outputs).toMatchObject({
      'pages-added': '0',
      'pages-removed': '0',
      'pages-changed': '0',
      'pages-navigation-changed': '0',
      'assets-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report).toMatchObject({
      format: 'static-export-changes',
      version: 4,
      comparedBy: 'content',
      previous: { jobId: first.manifest.jobId },
      current: { jobId: second.manifest.jobId },
      pages: { before: 12, after: 12, unchanged: 12 },
      assets: { unchanged: 9 },
    });
    expect(run.outputs['changes-file']).toBe(
      path.join(tempDir, `static-export-changes-${second.manifest.jobId}.json`),
    );
    expect(run.summary).toContain(`#### Changes since the export of`);
    expect(run.summary).toContain('| Pages | 12 → 12: 0 added, 0 removed, 0 changed |');
    expect(run.summary).toContain('| Compared with | the earlier export in `path` (');
    expect(run.stdout).toContain(
      `Compared with the earlier export in \`path\` (${path.join(workspace, 'site')}), export job ${first.manifest.jobId}.`,
    );
  });

  it('reports exactly the edited page, with its URL and title', async () => {
    await exportOnce(PAGES);
    const pages = edited(PAGES, 'guides/topic-4', (p) => ({
      ...p,
      body: [...p.body.slice(0, 2), 'This sentence is new.', ...p.body.slice(2)],
    }));
    const run = await exportOnce(pages);
    expect(run.outcome.error).toBeUndefined();
    expect(run.outputs).toMatchObject({
      'pages-changed': '1',
      'pages-added': '0',
      'pages-removed': '0',
      'pages-navigation-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.changed).toEqual([pageRef('guides/topic-4', 4)]);
    expect(run.summary).toContain('**Changed pages** (1)');
    expect(run.summary).toContain(
      '- Topic 4 - Example Docs — [/guides/topic-4](https://docs.example.com/guides/topic-4)',
    );
    expect(logLines(run)).toContain('  changed: https://docs.example.com/guides/topic-4');
  });

  it('reports an edit after a commented-out script on the page', async () => {
    const withLimit = (limit: string) =>
      edited(PAGES, 'guides/topic-4', (p) => ({
        ...p,
        body: ['<!-- TODO: the <script> embed, once it ships -->', `At most ${limit}.`],
      }));
    await exportOnce(withLimit('100'));
    const run = await exportOnce(withLimit('5'));
    expect(run.outputs['pages-changed']).toBe('1');
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.changed.map((page) => page.url)).toEqual([
      'https://docs.example.com/guides/topic-4',
    ]);
  });

  it('reports a renamed page as changed and the sidebar change on every other page as navigation', async () => {
    await exportOnce(PAGES);
    const run = await exportOnce(
      edited(PAGES, 'reference/topic-5', (p) => ({ ...p, title: 'Topic five' })),
    );
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.changed.map((p) => p.path)).toEqual(['reference/topic-5.html']);
    expect(report.pages.navigationChanged).toHaveLength(PAGES.length - 1);
    expect(run.outputs['pages-navigation-changed']).toBe(String(PAGES.length - 1));
    expect(run.summary).toContain(`navigation changed on ${PAGES.length - 1} pages`);
  });

  it('reports a deleted page as removed, added pages as added', async () => {
    await exportOnce(PAGES);
    const pages = [
      ...PAGES.filter((p) => p.route !== 'api/topic-6'),
      { route: 'guides/new-page', title: 'A new page', body: ['Fresh content.'] },
    ];
    const run = await exportOnce(pages);
    expect(run.outputs).toMatchObject({
      'pages-removed': '1',
      'pages-added': '1',
      'pages-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.removed).toEqual([pageRef('api/topic-6', 6)]);
    expect(report.pages.added.map((p) => p.url)).toEqual([
      'https://docs.example.com/guides/new-page',
    ]);
    expect(report.pages.before).toBe(12);
    expect(report.pages.after).toBe(12);
    expect(run.summary).toContain('**Removed pages** (1)');
  });

  it('reports a page moved to another address as moved, which max-removed-pages does not count', async () => {
    await exportOnce(PAGES);
    const moved = PAGES.map((p) =>
      p.route === 'api/topic-6' ? { ...p, route: 'reference/api/topic-6' } : p,
    );
    const run = await exportOnce(moved, { 'max-removed-pages': '0' });
    expect(run.outcome.error).toBeUndefined();
    expect(run.outputs).toMatchObject({
      'pages-moved': '1',
      'pages-removed': '0',
      'pages-added': '0',
      'pages-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.moved).toEqual([
      {
        ...pageRef('reference/api/topic-6', 6),
        previous: { path: 'api/topic-6.html', url: 'https://docs.example.com/api/topic-6' },
      },
    ]);
    // Its link moved in every other page's sidebar.
    expect(report.pages.navigationChanged).toHaveLength(PAGES.length - 1);
    expect(run.summary).toContain('12 → 12: 0 added, 0 removed, 1 moved, 0 changed');
    expect(run.summary).toContain(
      '- Topic 6 - Example Docs — [/reference/api/topic-6](https://docs.example.com/reference/api/topic-6) (was `/api/topic-6`)',
    );
    // The old address is a path, as in the summary: nothing is served there any more.
    expect(logLines(run)).toContain(
      '  moved: /api/topic-6 → https://docs.example.com/reference/api/topic-6',
    );
  });

  it('reports a page whose old address now redirects to it as moved, and the stub as no change', async () => {
    await exportOnce(PAGES);
    const moved = PAGES.map((p) =>
      p.route === 'api/topic-6' ? { ...p, route: 'reference/api/topic-6' } : p,
    );
    // What Next.js writes for redirect() in a static export, left at the old address.
    await serveWithStub(
      moved,
      'api/topic-6.html',
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><meta id="__next-page-redirect" http-equiv="refresh" content="1;url=/reference/api/topic-6"/></head><body></body></html>',
    );
    const run = await harness.run(exportInputs({ 'max-removed-pages': '0' }), {
      workspace,
      tempDir,
    });
    expect(failure(run)).toBeUndefined();
    expect(run.outputs).toMatchObject({
      'pages-moved': '1',
      'pages-removed': '0',
      'pages-added': '0',
      'pages-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.moved).toEqual([
      {
        ...pageRef('reference/api/topic-6', 6),
        previous: {
          path: 'api/topic-6.html',
          url: 'https://docs.example.com/api/topic-6',
          redirected: true,
        },
      },
    ]);
    expect(report.pages).toMatchObject({ before: 12, after: 13 });
    expect(run.summary).toContain(
      '12 → 13: 0 added, 0 removed, 1 moved (1 leaving a redirect at the old address), 0 changed',
    );
    expect(run.summary).toContain('(was `/api/topic-6`, which now redirects here)');
  });

  it('reports a page renamed and edited at once, its old address a redirect to it, as moved and changed', async () => {
    await exportOnce(PAGES);
    const moved = PAGES.map((p) =>
      p.route === 'api/topic-6'
        ? { ...p, route: 'reference/api/topic-6', title: 'Topic 6, revised', body: ['Rewritten.'] }
        : p,
    );
    await serveWithStub(
      moved,
      'api/topic-6.html',
      '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/reference/api/topic-6"/></head><body></body></html>',
    );
    const run = await harness.run(exportInputs(), { workspace, tempDir });
    expect(failure(run)).toBeUndefined();
    expect(run.outputs).toMatchObject({
      'pages-moved': '1',
      'pages-removed': '0',
      'pages-added': '0',
      'pages-changed': '0',
    });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.pages.moved).toEqual([
      {
        path: 'reference/api/topic-6.html',
        url: 'https://docs.example.com/reference/api/topic-6',
        title: 'Topic 6, revised - Example Docs',
        previous: {
          path: 'api/topic-6.html',
          url: 'https://docs.example.com/api/topic-6',
          redirected: true,
        },
        changed: true,
      },
    ]);
    expect(run.summary).toContain(
      '12 → 13: 0 added, 0 removed, 1 moved (1 leaving a redirect at the old address, 1 changed too), 0 changed',
    );
    expect(run.summary).toContain(
      '(was `/api/topic-6`, which now redirects here; its content changed too)',
    );
    expect(logLines(run)).toContain(
      '  moved: /api/topic-6 → https://docs.example.com/reference/api/topic-6 (the old address redirects to it; its content changed too)',
    );
  });

  it('reports a new release of the site code as changed assets, not as changed pages', async () => {
    await exportOnce(PAGES);
    await serve(PAGES, { codeVersion: 2 });
    const run = await harness.run(exportInputs(), { workspace, tempDir });
    expect(run.outputs['pages-changed']).toBe('0');
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.assets.changed).toHaveLength(6);
    expect(report.assets.changed.every((a) => a.path.startsWith('_next/static/chunks/'))).toBe(
      true,
    );
    expect(report.assets.changed[0]?.previous).toMatch(/^_next\/static\/chunks\//);
    expect(run.outputs['assets-changed']).toBe('6');
  });

  it('compares by bytes, and says so, against a manifest without page fingerprints', async () => {
    const site = path.join(workspace, 'site');
    await writeEarlierExport(
      site,
      Object.fromEntries(buildDocsSite({ pages: PAGES, buildId: 'old' })),
    );
    const run = await exportOnce(PAGES);
    expect(run.outcome.error).toBeUndefined();
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.comparedBy).toBe('bytes');
    expect(report.pages.changed).toHaveLength(PAGES.length);
    expect(notices(run).join('\n')).toMatch(/no page fingerprints.*compared by their bytes/);
    expect(run.summary).toContain(
      '⚠️ file bytes: the earlier manifest has no page fingerprints, so build noise counts as a change',
    );
  });

  it('says so when the earlier fingerprints were made by another version of the action', async () => {
    await exportOnce(PAGES);
    const file = path.join(workspace, 'site', MANIFEST_NAME);
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as {
      pageFingerprints: { scheme: number };
    };
    manifest.pageFingerprints.scheme = 99;
    await fs.writeFile(file, JSON.stringify(manifest));
    const run = await exportOnce(PAGES);
    expect(run.outcome.error).toBeUndefined();
    expect(notices(run).join('\n')).toMatch(
      /page fingerprints of another kind \(scheme 99; this version makes \d+\), made by another version of this action: pages were compared by their bytes/,
    );
    expect(run.summary).toMatch(
      /\| Compared by \| ⚠️ file bytes: the earlier manifest has page fingerprints of another kind \(scheme 99; this version makes \d+\), so build noise counts as a change \|/,
    );
  });
});

describe('max-removed-pages', () => {
  it('fails before the export is put in place when too many pages go, and leaves path as it was', async () => {
    await exportOnce(PAGES);
    const manifestFile = path.join(workspace, 'site', MANIFEST_NAME);
    const before = await fs.readFile(manifestFile, 'utf8');
    const run = await exportOnce(PAGES.slice(0, 9), { 'max-removed-pages': '2' });
    expect(run.outcome.error?.constructor.name).toBe('RemovalLimitError');
    expect(failure(run)).toMatch(
      /^The export was not put in place, and `path` was left as it is: it removes 3 of the 12 pages \(25%\), more than `max-removed-pages` allows \(2\); removed: /,
    );
    expect(await fs.readFile(manifestFile, 'utf8')).toBe(before);
    expect(await fs.readdir(path.dirname(path.join(workspace, 'site')))).toEqual(['site']);
    // The report is there to see what would have gone.
    expect(run.outputs['pages-removed']).toBe('3');
    expect(run.summary).toContain('**Removed pages** (3)');
    expect(run.summary).toContain('**Error:** The export was not put in place');
    // Downloaded and verified before the guard refused it: its digest is known.
    expect(run.outputs.sha256).toBe(createHash('sha256').update(serving).digest('hex'));
  });

  it('names the first removed pages in its refusal, beside the report file that lists them all', async () => {
    await exportOnce(PAGES);
    const run = await exportOnce(PAGES.slice(0, 4), { 'max-removed-pages': '2' });
    expect(run.outcome.error?.constructor.name).toBe('RemovalLimitError');
    // The report file is in RUNNER_TEMP, gone with the job: the message outlives it. A
    // removed page has no address any more: it is named by its path, as in the summary.
    const removed = PAGES.slice(4).map((page) => `/${page.route}`);
    const named = /; removed: (.*) and 3 more\./.exec(failure(run) ?? '')?.[1]?.split(', ');
    expect(named).toHaveLength(5);
    for (const url of named ?? []) expect(removed).toContain(url);
    for (const page of removed.slice(0, 10)) expect(logLines(run)).toContain(`  removed: ${page}`);
    expect(failure(run)).toContain(`listed in ${run.outputs['changes-file']}`);
  });

  it("keeps the archive's sha256 in the CLI's --json when the guard refuses the export", async () => {
    await exportOnce(PAGES);
    await serve(PAGES.slice(0, 9));
    const cli = await harness.cli(
      [
        'export',
        '--json',
        '--base-url',
        harness.emulator.baseUrl,
        '--domain',
        'docs.example.com',
      ].concat(['--path', 'site', '--max-removed-pages', '2']),
      { cwd: workspace, env: { ADMIN_API_KEY: harness.emulator.keys.write } },
    );
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      sha256: createHash('sha256').update(serving).digest('hex'),
      'pages-removed': 3,
      error: { message: expect.stringContaining('more than `--max-removed-pages` allows (2)') },
    });
  });

  it('counts against an earlier export that overwrite replaces with a file of the user beside it', async () => {
    await exportOnce(PAGES);
    await fs.writeFile(path.join(workspace, 'site', 'CNAME'), 'docs.example.com\n');
    const run = await exportOnce(PAGES.slice(0, 6), {
      overwrite: 'true',
      'max-removed-pages': '2',
    });
    expect(failure(run)).toMatch(/it removes 6 of the 12 pages \(50%\)/);
    expect(await fs.readFile(path.join(workspace, 'site', 'CNAME'), 'utf8')).toBe(
      'docs.example.com\n',
    );
    expect(run.outputs['pages-removed']).toBe('6');
    const guardOnly = await exportOnce(PAGES.slice(0, 6), {
      overwrite: 'true',
      'compare-with': 'none',
      'max-removed-pages': '2',
    });
    expect(failure(guardOnly)).toMatch(/counted against the earlier export in `path`/);
  });

  it('takes a share of the earlier pages, and lets an export within it through', async () => {
    await exportOnce(PAGES);
    const within = await exportOnce(PAGES.slice(0, 11), { 'max-removed-pages': '10%' });
    expect(within.outcome.error).toBeUndefined();
    expect(within.outputs['pages-removed']).toBe('1');
    const beyond = await exportOnce(PAGES.slice(0, 9), { 'max-removed-pages': '10%' });
    expect(failure(beyond)).toMatch(
      /it removes 2 of the 11 pages \(18\.2%\), more than `max-removed-pages` allows \(10%\)/,
    );
  });

  it('warns that it could not check anything when there is no earlier export', async () => {
    const run = await exportOnce(PAGES, { 'max-removed-pages': '0' });
    expect(run.outcome.error).toBeUndefined();
    expect(warnings(run)).toContain(
      '`max-removed-pages` was not checked: there is no earlier export to count removed pages against, neither from `compare-with` nor in `path`.',
    );
  });
});

describe('an export that is not put in place after the report', () => {
  it('says the report describes what would have changed, and links no page that is not served', async () => {
    await exportOnce(PAGES);
    const site = path.join(workspace, 'site');
    const pages = [
      ...edited(PAGES, 'guides/topic-4', (p) => ({ ...p, body: ['Rewritten.'] })),
      { route: 'guides/new-page', title: 'A new page', body: ['Fresh content.'] },
    ];
    // A file of someone else's appears in path while the export runs: the swap refuses.
    whileExporting = () => fs.writeFile(path.join(site, 'notes.txt'), 'mine\n');
    const run = await exportOnce(pages);
    expect(failure(run)).toMatch(/^The export was not put in place/);
    expect(await fs.readFile(path.join(site, 'notes.txt'), 'utf8')).toBe('mine\n');
    // The counts and the file stay, as for the guard's refusal; path is not an output.
    expect(run.outputs).toMatchObject({ 'pages-changed': '1', 'pages-added': '1' });
    expect(run.outputs.path).toBeUndefined();
    expect(run.summary).not.toContain('#### Changes since the export of');
    expect(run.summary).toContain('#### Changes this export would have made since the export of');
    expect(run.summary).toContain(
      '⚠️ This export was not put in place (the error below says why): the report describes what it would have changed, not what is live.',
    );
    // Not served anywhere: a path, not a link that answers 404.
    expect(run.summary).toContain('- A new page - Example Docs — `/guides/new-page`');
    expect(run.summary).toContain(
      '- Topic 4 - Example Docs — [/guides/topic-4](https://docs.example.com/guides/topic-4)',
    );
    expect(logLines(run)).toContain(
      'The change report above describes what this export would have changed: it was not put in place.',
    );
  });
});

describe('compare-with', () => {
  /** A first export kept elsewhere: its manifest is what the live site would serve. */
  async function earlierManifest(): Promise<string> {
    const run = await exportOnce(PAGES, { path: 'previous' });
    expect(run.outcome.error).toBeUndefined();
    return path.join(workspace, 'previous', MANIFEST_NAME);
  }

  it('takes a manifest file, or a directory holding an export, instead of path', async () => {
    const manifest = await earlierManifest();
    const byFile = await exportOnce(
      edited(PAGES, 'concepts/topic-3', (p) => ({ ...p, body: ['Rewritten.'] })),
      {
        'compare-with': 'previous/.static-export.json',
        'changes-file': 'reports/changes.json',
      },
    );
    expect(byFile.outputs['pages-changed']).toBe('1');
    expect(byFile.outputs['changes-file']).toBe(path.join(workspace, 'reports', 'changes.json'));
    const report = await reportOf(byFile.outputs['changes-file'] as string);
    expect(report.source).toBe(`the manifest ${manifest}`);
    const byDirectory = await exportOnce(PAGES, { 'compare-with': 'previous', path: 'other' });
    expect(byDirectory.outputs['pages-changed']).toBe('0');
    // A site's name, written as a path, gets the address to give instead.
    const named = await exportOnce(PAGES, { 'compare-with': 'docs.example.com', path: 'other' });
    expect(warnings(named)).toEqual([
      `No change report: \`compare-with\` "docs.example.com" (${path.join(workspace, 'docs.example.com')}) does not exist; for the live site, give https://docs.example.com/.`,
    ]);
    const capital = await exportOnce(PAGES, { 'compare-with': 'None', path: 'other' });
    expect(warnings(capital)).toEqual([
      `No change report: \`compare-with\` "None" (${path.join(workspace, 'None')}) does not exist; to compare with nothing, write none in lowercase.`,
    ]);
    // With a slash or a path after it, as a browser's address bar shows it.
    for (const [given, address] of [
      ['docs.example.com/', 'https://docs.example.com/'],
      ['docs.example.com/v2', 'https://docs.example.com/v2/'],
    ] as const) {
      const withPath = await exportOnce(PAGES, { 'compare-with': given, path: 'other' });
      expect(warnings(withPath)).toEqual([
        `No change report: \`compare-with\` "${given}" (${path.resolve(workspace, given)}) does not exist; for the live site, give ${address}.`,
      ]);
    }
    const file = await exportOnce(PAGES, { 'compare-with': 'previous.json', path: 'other' });
    expect(warnings(file)).toEqual([
      `No change report: \`compare-with\` "previous.json" (${path.join(workspace, 'previous.json')}) does not exist.`,
    ]);
  });

  it('follows a manifest file given as a link, and reads one saved again with a byte order mark', async () => {
    const manifest = await earlierManifest();
    const copy = path.join(workspace, 'saved.json');
    await fs.writeFile(copy, `\ufeff${await fs.readFile(manifest, 'utf8')}`);
    await fs.symlink(copy, path.join(workspace, 'latest.json'));
    const run = await exportOnce(
      edited(PAGES, 'concepts/topic-3', (p) => ({ ...p, body: ['Rewritten.'] })),
      { 'compare-with': 'latest.json' },
    );
    expect(warnings(run)).toEqual([]);
    expect(run.outputs['pages-changed']).toBe('1');
    expect((await reportOf(run.outputs['changes-file'] as string)).source).toBe(
      `the manifest ${copy}`,
    );
    // As Windows PowerShell saves it (`Out-File`, `>`): UTF-16 with its byte order mark.
    const utf16 = path.join(workspace, 'powershell.json');
    await fs.writeFile(utf16, `\ufeff${await fs.readFile(manifest, 'utf8')}`, 'utf16le');
    const saved = await exportOnce(
      edited(PAGES, 'api/topic-2', (p) => ({ ...p, body: ['Rewritten.'] })),
      { 'compare-with': 'powershell.json', path: 'other' },
    );
    expect(warnings(saved)).toEqual([]);
    expect(saved.outputs['pages-changed']).toBe('1');
  });

  it('fetches the manifest the live site serves, with no credentials, and warns when it has none', async () => {
    const manifest = await fs.readFile(await earlierManifest());
    const requests: http.IncomingHttpHeaders[] = [];
    const site = http.createServer((req, res) => {
      requests.push(req.headers);
      if (req.url === '/.static-export.json')
        res.writeHead(200, { 'content-type': 'application/json' }).end(manifest);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(
        edited(PAGES, '', (p) => ({ ...p, body: ['A new welcome.'] })),
        {
          'compare-with': `${origin}/`,
        },
      );
      expect(run.outcome.error).toBeUndefined();
      expect(run.outputs['pages-changed']).toBe('1');
      const report = await reportOf(run.outputs['changes-file'] as string);
      expect(report.source).toBe(`the manifest served at ${origin}/.static-export.json`);
      expect(report.pages.changed[0]?.url).toBe('https://docs.example.com/');
      expect(requests[0]?.authorization).toBeUndefined();

      const missing = await exportOnce(PAGES, { 'compare-with': `${origin}/docs/`, path: 'other' });
      expect(missing.outcome.error).toBeUndefined();
      expect(warnings(missing)).toEqual([
        `No change report: ${origin}/docs/.static-export.json answered HTTP 404: the site does not serve its export manifest there yet (a first deploy, or the file is not published).`,
      ]);
      expect(missing.outputs['pages-changed']).toBeUndefined();
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('links the pages under the folder where the live site on the domain serves them', async () => {
    const manifest = await fs.readFile(await earlierManifest());
    const site = http.createServer((req, res) => {
      if (req.url === '/docs/.static-export.json')
        res.writeHead(200, { 'content-type': 'application/json' }).end(manifest);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(
        edited(PAGES, '', (p) => ({ ...p, body: ['A new welcome.'] })).filter(
          (p) => p.route !== 'api/topic-6',
        ),
        // The domain of the live site the manifest is fetched from.
        { domain: '127.0.0.1', 'compare-with': `${origin}/docs/` },
      );
      expect(run.outcome.error).toBeUndefined();
      const report = await reportOf(run.outputs['changes-file'] as string);
      expect(report.site).toBe('https://127.0.0.1/docs/');
      expect(report.pages.changed.map((p) => p.url)).toEqual(['https://127.0.0.1/docs/']);
      expect(report.pages.removed.map((p) => p.url)).toEqual([
        'https://127.0.0.1/docs/api/topic-6',
      ]);
      expect(run.summary).toContain('- Example Docs — [/docs/](https://127.0.0.1/docs/)');
      expect(run.summary).toContain('- Topic 6 - Example Docs — `/docs/api/topic-6`');
      expect(logLines(run)).toContain('  removed: /docs/api/topic-6');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it("leaves no earlier run's report at a fixed changes-file when this run has none", async () => {
    await exportOnce(PAGES);
    const file = path.join(workspace, 'reports', 'changes.json');
    const reported = await exportOnce(PAGES, { 'changes-file': 'reports/changes.json' });
    expect(reported.outputs['changes-file']).toBe(file);
    const first = await exportOnce(PAGES, {
      'changes-file': 'reports/changes.json',
      path: 'other',
    });
    expect(first.outcome.error).toBeUndefined();
    expect(first.outputs['changes-file']).toBeUndefined();
    await expect(fs.access(file)).rejects.toThrow();
    expect(logLines(first)).toContain(
      `Removed ${file}, the change report of an earlier run: this run has none.`,
    );
    // Nor when the guard refuses the export, counting against the earlier export in path.
    await exportOnce(PAGES, { 'changes-file': 'reports/changes.json' });
    const refused = await exportOnce(PAGES.slice(0, 2), {
      'changes-file': 'reports/changes.json',
      'compare-with': 'none',
      'max-removed-pages': '1',
    });
    expect(failure(refused)).toMatch(/counted against the earlier export in `path`/);
    await expect(fs.access(file)).rejects.toThrow();
    // Nor when the run fails before its report: a step after it must not read the last one.
    await exportOnce(PAGES, { 'changes-file': 'reports/changes.json' });
    serving = Buffer.from('not an archive');
    const failed = await harness.run(exportInputs({ 'changes-file': 'reports/changes.json' }), {
      workspace,
      tempDir,
    });
    expect(failure(failed)).toMatch(/not an archive/);
    await expect(fs.access(file)).rejects.toThrow();
    // Nor when this run makes no report at all: no guard, or no site extracted here.
    const noReport: Record<string, string>[] = [
      { 'compare-with': 'none' },
      { extract: 'false', path: 'archives' },
      { download: 'false' },
    ];
    for (const inputs of noReport) {
      const reporting = await exportOnce(PAGES, { 'changes-file': 'reports/changes.json' });
      expect(reporting.outputs['changes-file']).toBe(file);
      const none = await exportOnce(PAGES, { 'changes-file': 'reports/changes.json', ...inputs });
      expect(none.outcome.error, JSON.stringify(inputs)).toBeUndefined();
      await expect(fs.access(file), JSON.stringify(inputs)).rejects.toThrow();
      expect(logLines(none)).toContain(
        `Removed ${file}, the change report of an earlier run: this run makes none.`,
      );
    }
    // A file that is not a change report is not this action's to remove.
    await fs.writeFile(file, '{"notes": "mine"}');
    await exportOnce(PAGES, { 'changes-file': 'reports/changes.json', path: 'third' });
    expect(await fs.readFile(file, 'utf8')).toBe('{"notes": "mine"}');
  });

  it('says so when the live site answers with a page instead of the manifest, or fails', async () => {
    const site = http.createServer((req, res) => {
      if (req.url?.startsWith('/app/'))
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><p>Sign in</p>');
      else res.writeHead(503).end('busy');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const page = await exportOnce(PAGES, { 'compare-with': `${origin}/app/` });
      expect(warnings(page)).toEqual([
        `No change report: ${origin}/app/.static-export.json answered with an HTML page, not the manifest: the site serves a page for paths it does not have (a fallback or a login page), so .static-export.json is not published with it.`,
      ]);
      const failing = await exportOnce(PAGES, { 'compare-with': `${origin}/` });
      expect(warnings(failing)).toEqual([
        `No change report: ${origin}/.static-export.json answered HTTP 503: the site failed to serve it; the next run tries again.`,
      ]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('none: no report and no page fingerprints in the manifest', async () => {
    await exportOnce(PAGES);
    const run = await exportOnce(PAGES, { 'compare-with': 'none' });
    expect(run.outcome.error).toBeUndefined();
    expect(run.outputs['pages-changed']).toBeUndefined();
    expect(run.summary).not.toContain('#### Changes');
    const read = await readManifest(path.join(workspace, 'site', MANIFEST_NAME));
    if (read.kind !== 'valid') throw new Error('manifest');
    expect(read.manifest.pageFingerprints).toBeUndefined();
    expect(read.manifest.files.some((f) => f.page)).toBe(false);
  });

  it('says why there is no report when the site is not extracted', async () => {
    const run = await exportOnce(PAGES, { extract: 'false', 'compare-with': 'previous' });
    expect(run.outcome.error).toBeUndefined();
    expect(notices(run)).toContain(
      '`compare-with` is set, but the site is not extracted here, so there is no change report.',
    );
  });

  it('refuses an address that is neither https nor loopback before any request', async () => {
    harness.emulator.requests.length = 0;
    const run = await harness.run(exportInputs({ 'compare-with': 'http://docs.example.com/' }), {
      workspace,
      tempDir,
    });
    expect(failure(run)).toMatch(/^compare-with: must be none, a path, or the https address/);
    expect(harness.emulator.requests).toEqual([]);
  });
});

describe('an earlier export written by someone else, or served by a hostile site', () => {
  /** An earlier export in `previous`, its manifest edited by `change`: the compare-with file. */
  async function alteredManifest(change: (manifest: Record<string, unknown>) => void) {
    const first = await exportOnce(PAGES, { path: 'previous' });
    expect(first.outcome.error).toBeUndefined();
    const file = path.join(workspace, 'previous', MANIFEST_NAME);
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    change(manifest);
    await fs.writeFile(file, JSON.stringify(manifest));
    return file;
  }
  const files = (manifest: Record<string, unknown>) =>
    manifest.files as { path: string; size: number; sha256: string; page?: unknown }[];

  it('cannot start a workflow command: a job id with a line break is not a manifest', async () => {
    const file = await alteredManifest((m) => {
      m.jobId = 'se_1\n::error title=Injected::from the earlier manifest';
    });
    const run = await exportOnce(PAGES, { 'compare-with': file });
    expect(run.outcome.error).toBeUndefined();
    expect(run.stdout).not.toMatch(/^::error title=Injected/m);
    expect(warnings(run).join('\n')).toMatch(
      /is not an export manifest: jobId holds a control character or a line break/,
    );
    expect(await fs.stat(path.join(workspace, 'site', MANIFEST_NAME))).toBeTruthy();
  });

  it('says a manifest of a newer version was written by a newer action, and makes no report from it', async () => {
    const file = await alteredManifest((m) => {
      m.version = 2;
    });
    const run = await exportOnce(PAGES, { 'compare-with': file });
    expect(run.outcome.error).toBeUndefined();
    expect(warnings(run)).toContain(
      `No change report: \`compare-with\` ${file} was written by a newer version of the action (manifest version 2; this one reads version 1), which this one cannot read: update the action to compare with it.`,
    );
    expect(run.outputs['pages-changed']).toBeUndefined();
    // Served by the live site, the same.
    const text = await fs.readFile(file);
    const site = http.createServer((_req, res) => res.writeHead(200).end(text));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/${MANIFEST_NAME}`;
    try {
      const served = await exportOnce(PAGES, { 'compare-with': url });
      expect(served.outcome.error).toBeUndefined();
      expect(warnings(served)).toContain(
        `No change report: ${url} was written by a newer version of the action (manifest version 2; this one reads version 1), which this one cannot read: update the action to compare with it.`,
      );
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('shows a removed page title as text in the summary, never as a link or an image', async () => {
    const title = '[Your token expired: sign in](https://evil.example/login) <img src=x>';
    const file = await alteredManifest((m) => {
      files(m).push({
        path: 'gone.html',
        size: 1,
        sha256: 'a'.repeat(64),
        page: { title, markup: '00000000-1', content: 'a'.repeat(32), navigation: 'b'.repeat(32) },
      });
    });
    const run = await exportOnce(PAGES, { 'compare-with': file });
    expect(run.outputs['pages-removed']).toBe('1');
    const line = run.summary.split('\n').find((l) => l.includes('evil.example')) ?? '';
    expect(line).toContain('\\[Your token expired\\: sign in\\]\\(https\\://evil.example/login\\)');
    expect(line).toContain('\\<img src=x\\>');
    // No longer served: shown as its path, not linked.
    expect(line).toMatch(/ — `\/gone`$/);
  });

  it('refuses a path that is not text (a lone surrogate) with a warning, and still exports', async () => {
    const file = await alteredManifest((m) => {
      files(m).push({ path: 'old-\ud800.html', size: 1, sha256: 'a'.repeat(64) });
    });
    const run = await exportOnce(PAGES, { 'compare-with': file });
    expect(run.outcome.error).toBeUndefined();
    expect(warnings(run).join('\n')).toMatch(
      /is not an export manifest: files\.\d+\.path is not a relative path/,
    );
    expect(run.outputs['pages-changed']).toBeUndefined();
  });

  it('compares by content all the pages that have fingerprints, when one lacks its own', async () => {
    const file = await alteredManifest((m) => {
      const page = files(m).find((f) => f.path.startsWith('guides/'));
      delete page?.page;
    });
    const run = await exportOnce(PAGES, { 'compare-with': file });
    const report = await reportOf(run.outputs['changes-file'] as string);
    expect(report.comparedBy).toBe('content');
    expect(report.pages.comparedByBytes).toBe(1);
    expect(run.outputs['pages-changed']).toBe('1');
    expect(notices(run)).toContain(
      '1 of the pages in both exports had no fingerprint in one of them: they were compared by their bytes, so a rebuild counts as a change there. The other pages were compared by what a reader sees.',
    );
    // The summary says why that page counts as changed, too.
    expect(run.summary).toContain(
      '| Compared by | what a reader sees (build ids and hashed asset names left out); ⚠️ 1 page by its bytes, for want of a fingerprint in one export, so its rebuild counts as a change |',
    );
  });

  it('gives up on a site that sends its manifest a byte at a time, after request-timeout', async () => {
    const site = http.createServer((req, res) => {
      if (req.url?.startsWith('/gzip/')) {
        // Compressed, then silent: the decoder must fail with the body, not wait on.
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.write(
          zlib.gzipSync(Buffer.from(`{"files": "${'x'.repeat(100_000)}"}`)).subarray(0, 100),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(PAGES, {
        'compare-with': `${origin}/`,
        'request-timeout': '1s',
      });
      expect(run.outcome.error).toBeUndefined();
      expect(warnings(run)).toContain(
        `No change report: ${origin}/.static-export.json did not answer in full within 1.0s (\`request-timeout\`).`,
      );
      const compressed = await exportOnce(PAGES, {
        'compare-with': `${origin}/gzip/`,
        'request-timeout': '1s',
      });
      expect(warnings(compressed)).toContain(
        `No change report: ${origin}/gzip/.static-export.json did not answer in full within 1.0s (\`request-timeout\`).`,
      );
      expect(await fs.stat(path.join(workspace, 'site', MANIFEST_NAME))).toBeTruthy();
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('never prints the credentials of an address the site redirects to', async () => {
    const site = http.createServer((_req, res) => {
      res
        .writeHead(302, {
          location:
            'https://deploy:hunter2secret@cdn.example.com/.static-export.json?X-Amz-Signature=abc',
        })
        .end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(PAGES, { 'compare-with': `${origin}/` });
      expect(warnings(run).join('\n')).toContain(
        'it redirects to https://cdn.example.com/.static-export.json?…: give that address',
      );
      expect(run.stdout).not.toContain('hunter2secret');
      expect(run.stdout).not.toContain('deploy:');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
  it('shows a redirect it cannot follow as text, and says when it leads to no web address', async () => {
    const site = http.createServer((req, res) => {
      const location =
        {
          '/bad/.static-export.json': 'https://[docs.example.com/',
          '/other/.static-export.json': 'x:![Approved](https://evil.example/a.png)',
        }[req.url ?? ''] ?? 'https://cdn.example.com/![Approved](https://evil.example/a.png)<b>';
      res.writeHead(302, { location }).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const markdown = await exportOnce(PAGES, { 'compare-with': `${origin}/` });
      const line = markdown.summary.split('\n').find((l) => l.startsWith('No change report'));
      expect(line).toContain('evil.example');
      // Every bracket, angle bracket and ! of the server's address is escaped.
      expect(line).not.toMatch(/(?<!\\)[[\]<>!]/);
      const other = await exportOnce(PAGES, { 'compare-with': `${origin}/other/` });
      expect(warnings(other)).toEqual([
        `No change report: ${origin}/other/.static-export.json answered HTTP 302: it redirects to a x: address, not a web address.`,
      ]);
      const unparsable = await exportOnce(PAGES, { 'compare-with': `${origin}/bad/` });
      expect(warnings(unparsable)).toEqual([
        `No change report: ${origin}/bad/.static-export.json answered HTTP 302: it redirects to an address that is not a URL.`,
      ]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('reads a manifest the store serves compressed, and names an encoding it cannot undo', async () => {
    await exportOnce(PAGES, { path: 'previous' });
    const manifest = await fs.readFile(path.join(workspace, 'previous', MANIFEST_NAME));
    const site = http.createServer((req, res) => {
      if (req.url === '/zstd/.static-export.json') {
        res.writeHead(200, { 'content-encoding': 'zstd' }).end(Buffer.from([0x28, 0xb5, 0x2f]));
      } else if (req.url === '/mislabelled/.static-export.json') {
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(manifest);
      } else if (req.url === '/large/.static-export.json') {
        // Over 64 MiB, as the manifest of a site of some 80,000 pages is: still read.
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(Buffer.concat([manifest, Buffer.alloc(65 * 1024 * 1024, ' ')]));
      } else {
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(zlib.gzipSync(manifest));
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(
        edited(PAGES, 'concepts/topic-3', (p) => ({ ...p, body: ['Rewritten.'] })),
        { 'compare-with': `${origin}/` },
      );
      expect(warnings(run)).toEqual([]);
      expect(run.outputs['pages-changed']).toBe('1');
      const zstd = await exportOnce(PAGES, { 'compare-with': `${origin}/zstd/` });
      expect(warnings(zstd)).toEqual([
        `No change report: ${origin}/zstd/.static-export.json is served with Content-Encoding "zstd", which the action cannot undo: serve it as is or gzip.`,
      ]);
      // Fetched in full, but not in the encoding its header names: said as such.
      const mislabelled = await exportOnce(PAGES, { 'compare-with': `${origin}/mislabelled/` });
      expect(warnings(mislabelled)).toEqual([
        `No change report: ${origin}/mislabelled/.static-export.json is served with Content-Encoding "gzip", but its body is not in that encoding (Z_DATA_ERROR): serve it as is, or with the header its bytes have.`,
      ]);
      const large = await exportOnce(PAGES, { 'compare-with': `${origin}/large/` });
      expect(warnings(large)).toEqual([]);
      expect(large.outputs['pages-changed']).toBe('0');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('reads a manifest the site serves in UTF-16 with its byte order mark, or deflated without the zlib wrapper', async () => {
    await exportOnce(PAGES, { path: 'previous' });
    const text = (
      await fs.readFile(path.join(workspace, 'previous', MANIFEST_NAME), 'utf8')
    ).replace(/^/, '\ufeff');
    const utf16be = Buffer.from(text, 'utf16le').swap16();
    const bodies: Record<string, [Buffer, Record<string, string>]> = {
      '/utf-16le/': [Buffer.from(text, 'utf16le'), {}],
      '/utf-16be/': [utf16be, {}],
      // As some servers send Content-Encoding: deflate, and browsers and curl read it.
      '/raw-deflate/': [zlib.deflateRawSync(Buffer.from(text)), { 'content-encoding': 'deflate' }],
      '/deflate/': [zlib.deflateSync(Buffer.from(text)), { 'content-encoding': 'deflate' }],
      '/gzip-utf-16le/': [
        zlib.gzipSync(Buffer.from(text, 'utf16le')),
        { 'content-encoding': 'gzip' },
      ],
    };
    const site = http.createServer((req, res) => {
      const served = bodies[(req.url ?? '').replace(MANIFEST_NAME, '')];
      if (served === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/json', ...served[1] }).end(served[0]);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const seen: Record<string, { warnings: string[]; changed?: string }> = {};
      for (const folder of Object.keys(bodies)) {
        const run = await exportOnce(
          edited(PAGES, 'concepts/topic-3', (p) => ({ ...p, body: ['Rewritten.'] })),
          { 'compare-with': `${origin}${folder}`, path: 'other' },
        );
        seen[folder] = { warnings: warnings(run), changed: run.outputs['pages-changed'] };
      }
      expect(seen).toEqual(
        Object.fromEntries(Object.keys(bodies).map((f) => [f, { warnings: [], changed: '1' }])),
      );
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('inputs that cannot work together', () => {
  it('refuses a changes-file inside path before any request: the export replaces path', async () => {
    harness.emulator.requests.length = 0;
    const run = await harness.run(exportInputs({ 'changes-file': 'site/changes.json' }), {
      workspace,
      tempDir,
    });
    expect(failure(run)).toMatch(
      /^changes-file: "site\/changes\.json" \(.+\/site\/changes\.json\) is inside `path` \(.+\/site\), which the export replaces as a whole: choose a file outside it/,
    );
    expect(harness.emulator.requests).toEqual([]);
  });

  it('refuses a changes-file or helm-values-file that a link leads into path, before any request', async () => {
    await exportOnce(PAGES);
    const before = await treeDigest(path.join(workspace, 'site'));
    // `reports` is a link to path: written there, the file would make path one the action
    // did not write (refused just before the swap), or be deleted with it.
    await fs.symlink('site', path.join(workspace, 'reports'));
    for (const input of ['changes-file', 'helm-values-file']) {
      harness.emulator.requests.length = 0;
      const run = await harness.run(exportInputs({ [input]: 'reports/out.json' }), {
        workspace,
        tempDir,
      });
      expect(failure(run)).toMatch(
        new RegExp(
          `^${input}: .+/reports/out\\.json leads, through a link, inside \`path\` \\(.+/site\\), which the export replaces as a whole: choose a file outside it`,
        ),
      );
      expect(harness.emulator.requests).toEqual([]);
    }
    expect(await treeDigest(path.join(workspace, 'site'))).toEqual(before);
  });

  it('with none, still counts removed pages against the earlier export in path', async () => {
    await exportOnce(PAGES);
    const before = await treeDigest(path.join(workspace, 'site'));
    const run = await exportOnce(PAGES.slice(0, 2), {
      'compare-with': 'none',
      'max-removed-pages': '1',
    });
    expect(failure(run)).toMatch(
      /it removes 10 of the 12 pages \(83\.3%\), more than `max-removed-pages` allows \(1\), counted against the earlier export in `path`/,
    );
    // No report lists them: the refusal names the first, in the log and the summary.
    const removed = PAGES.slice(2).map((page) => `/${page.route}`);
    const named = /; removed: (.*) and 5 more\./.exec(failure(run) ?? '')?.[1]?.split(', ');
    expect(named).toHaveLength(5);
    for (const url of named ?? []) expect(removed).toContain(url);
    expect(run.summary).toContain(`${(named ?? []).join(', ')} and 5 more`);
    expect(await treeDigest(path.join(workspace, 'site'))).toEqual(before);
    const within = await exportOnce(PAGES.slice(0, 11), {
      'compare-with': 'none',
      'max-removed-pages': '1',
    });
    expect(within.outcome.error).toBeUndefined();
    expect(within.outputs['pages-removed']).toBeUndefined();
    expect(logLines(within)).toContain(
      `\`max-removed-pages\` was checked against the earlier export in \`path\` (${path.join(workspace, 'site')}): 1 of its 12 pages removed.`,
    );
  });

  it('when the live site cannot be read, counts removed pages against the earlier export in path', async () => {
    await exportOnce(PAGES);
    const before = await treeDigest(path.join(workspace, 'site'));
    const site = http.createServer((_req, res) => res.writeHead(404).end('not found'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const run = await exportOnce(PAGES.slice(0, 1), {
        'compare-with': `${origin}/`,
        'max-removed-pages': '5%',
      });
      expect(warnings(run)[0]).toMatch(/^No change report: .* answered HTTP 404/);
      expect(failure(run)).toMatch(
        /it removes 11 of the 12 pages .*counted against the earlier export in `path`/,
      );
      expect(await treeDigest(path.join(workspace, 'site'))).toEqual(before);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('images and files a writer names', () => {
  it('reports a page whose image was swapped for another of a similar name', async () => {
    const withImage = (name: string) =>
      edited(PAGES, 'concepts/topic-3', (p) => ({
        ...p,
        body: [...p.body, `<img src="/images/${name}" alt="Flow">`],
      }));
    await exportOnce(withImage('diagram01.png'));
    const run = await exportOnce(withImage('diagram02.png'));
    expect(run.outputs['pages-changed']).toBe('1');
  });
});

describe('archives that real tools leave at the edges of the formats', () => {
  it('keeps a backslash in a tar name as a character: one page, a manifest read back, a URL that escapes it', async () => {
    const page = (text: string) =>
      `<!doctype html><html><head><title>Back slash</title></head><body><p>${text}</p></body></html>`;
    const build = async (text: string) => {
      builds += 1;
      const files = buildDocsSite({ pages: PAGES, buildId: newBuildId(`build-${builds}`) });
      return tarOf([
        ...[...files].map(([name, content]) => ({ name, content })),
        { name: 'back\\slash.html', content: page(text) },
      ]);
    };
    serving = await build('one');
    const first = await harness.run(exportInputs(), { workspace, tempDir });
    expect(failure(first)).toBeUndefined();
    const site = path.join(workspace, 'site');
    expect(await fs.readFile(path.join(site, 'back\\slash.html'), 'utf8')).toBe(page('one'));
    await expect(fs.stat(path.join(site, 'back'))).rejects.toThrow();
    const read = await readManifest(path.join(site, MANIFEST_NAME));
    if (read.kind !== 'valid') throw new Error(`manifest ${read.kind}`);
    expect(read.manifest.files.map((file) => file.path)).toContain('back\\slash.html');

    // The next export replaces it, and names the changed page by an address a browser
    // does not read as /back/slash.
    serving = await build('two');
    const changesFile = path.join(tempDir, 'changes.json');
    const second = await harness.run(exportInputs({ 'changes-file': changesFile }), {
      workspace,
      tempDir,
    });
    expect(failure(second)).toBeUndefined();
    expect(await fs.readFile(path.join(site, 'back\\slash.html'), 'utf8')).toBe(page('two'));
    const report = await reportOf(changesFile);
    expect(report.pages.changed).toEqual([
      expect.objectContaining({
        path: 'back\\slash.html',
        url: 'https://docs.example.com/back%5Cslash',
      }),
    ]);
  });

  /** A new build of PAGES, archived on a Mac: each file with its AppleDouble companion. */
  const macArchives = {
    'tar.gz, ._ files before their files': (files: Map<string, string>) =>
      tarOf(
        [...files].flatMap(([name, content]) => [
          { name: name.replace(/([^/]+)$/, '._$1'), content: appleDouble() },
          { name, content },
        ]),
      ),
    'zip, a __MACOSX/ folder (Finder)': (files: Map<string, string>) =>
      zipOf([
        ...[...files].map(([name, content]) => ({ name, content })),
        ...[...files.keys()].map((name) => ({
          name: `__MACOSX/${name.replace(/([^/]+)$/, '._$1')}`,
          content: appleDouble(),
        })),
      ]),
  };
  for (const [kind, archiveOf] of Object.entries(macArchives)) {
    it(`leaves out the macOS metadata of an archive made on a Mac (${kind}), and says so once`, async () => {
      await exportOnce(PAGES);
      builds += 1;
      const files = buildDocsSite({ pages: PAGES, buildId: newBuildId(`build-${builds}`) });
      serving = await archiveOf(files);
      const run = await harness.run(exportInputs(), { workspace, tempDir });
      expect(failure(run)).toBeUndefined();

      // No page appears: the companions of the 12 pages are not pages of the site.
      expect(run.outputs).toMatchObject({
        'pages-added': '0',
        'pages-removed': '0',
        'pages-changed': '0',
        'assets-changed': '0',
      });
      const said = logLines(run).filter((line) => line.includes('macOS metadata'));
      expect(said).toEqual([
        `Left out ${files.size} macOS metadata files (__MACOSX/, ._*): the archive was made on a Mac, and they are not part of the site.`,
      ]);
      expect(logLines(run)).toContain(
        `Extracted ${files.size} files (${formatBytes([...files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0))}) from the ${kind.startsWith('zip') ? 'zip' : 'tar.gz'} archive; every entry passed the safety checks.`,
      );
      const site = path.join(workspace, 'site');
      const read = await readManifest(path.join(site, MANIFEST_NAME));
      if (read.kind !== 'valid') throw new Error(`manifest ${read.kind}`);
      expect(read.manifest.files.map((file) => file.path).sort()).toEqual([...files.keys()].sort());
      const onDisk = await fs.readdir(site, { recursive: true });
      expect(onDisk.filter((name) => /(^|\/)(\._|__MACOSX)/.test(name))).toEqual([]);
    });
  }
});
