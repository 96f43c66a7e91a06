/**
 * The job summary rendered by cmark-gfm (Debian's), the GitHub Flavored Markdown library
 * GitHub's renderer is built on, with GitHub's extensions and raw HTML let through (GitHub
 * sanitizes it afterwards; here any raw tag shows). Names and text that others wrote
 * (file names and page titles from the archive, what the server sends, the prompt) must
 * show as written: every table row with its header's cells, no link, image, HTML tag,
 * emphasis or strikethrough of their own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReadiness } from '../../src/airgap/check.js';
import { pageUrl } from '../../src/changes/site-files.js';
import { CHANGES_FORMAT, CHANGES_VERSION, type ChangeReport } from '../../src/changes/compare.js';
import { parseConfig, type ExportConfig } from '../../src/config.js';
import { inspectTarget } from '../../src/deliver/target.js';
import { type ExportRecord, renderAgentSummary, renderExportSummary } from '../../src/report.js';
import { recordingReporter } from '../support/recording-reporter.js';

const CI = process.env.CI === 'true';
const CMARK = '/usr/bin/cmark-gfm';
const installed = existsSync(CMARK);
if (!installed && !CI) console.log('Skipping the summary rendering test: no cmark-gfm.');

/** Text that Markdown, GFM or HTML would read as something else. */
const HOSTILE = [
  'a|b',
  'c`d',
  'x\\|y',
  '<b>bold</b>',
  '<img src=x>',
  '[link](https://evil.example/)',
  '![image](https://evil.example/p.png)',
  'www.evil.example',
  'https://evil.example/x',
  '*em* _em_',
  '~~struck~~',
  '&amp; &lt;',
  '<!-- c',
  '```',
  'end\\',
  // GitHub renders a pair of dollars in one run of text as math (MathJax): `$x$` in italics.
  '$x$ and $$y$$',
];

function render(markdown: string): string {
  const run = spawnSync(
    CMARK,
    [
      '--unsafe',
      ...['table', 'autolink', 'strikethrough', 'tagfilter', 'tasklist'].flatMap((e) => ['-e', e]),
    ],
    { input: markdown, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** What a rendered summary holds that the tests judge. */
function read(html: string) {
  const tables = [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((table) =>
    [...(table[1] as string).matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(
      (row) => [...(row[1] as string).matchAll(/<t[hd]>/g)].length,
    ),
  );
  const tags = new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1] as string));
  // Every anchor, with the address it leads to ('' for none: raw HTML such as `<a name>`).
  const links = [...html.matchAll(/<a\b([^>]*)>/g)].map(
    (m) => /^ href="([^"]*)"$/.exec(m[1] as string)?.[1] ?? '',
  );
  return { tables, tags, links, text: decode(html) };
}

/** The tags our own Markdown makes; anything else came from the text it shows. */
const OURS = new Set([
  'h3',
  'h4',
  'p',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'ul',
  'li',
  'a',
  'strong',
  // Only as `<span>$</span>`, GitHub's way to show a dollar that starts no math.
  'span',
]);

/**
 * The runs of text GitHub would read math in (`$…$` within one run, outside code): a
 * dollar alone in a `<span>` pairs with none.
 */
function mathRuns(html: string): string[] {
  return html
    .replace(/<(code|pre)>[\s\S]*?<\/\1>/g, '')
    .split(/<[^>]+>/)
    .filter((run) => /\$[^$]*\$/.test(run));
}

function expectShownAsWritten(markdown: string, allowedLinks: (link: string) => boolean) {
  const html = render(markdown);
  const { tables, tags, links, text } = read(html);
  expect(mathRuns(html)).toEqual([]);
  expect(html.replace(/<span>\$<\/span>/g, '')).not.toMatch(/<\/?span\b/);
  for (const rows of tables)
    expect(new Set(rows).size, `cells per row: ${rows.join(', ')}`).toBe(1);
  expect([...tags].filter((tag) => !OURS.has(tag))).toEqual([]);
  expect(links.filter((link) => !allowedLinks(link))).toEqual([]);
  return text;
}

describe.skipIf(!installed && !CI)('the job summary, rendered by cmark-gfm', () => {
  it('shows the file names and page titles of an export as written', async () => {
    const site = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-gfm-'));
    const names = HOSTILE.map((text, i) => `p${i}-${text.replace(/\//g, '_')}.html`);
    for (const [i, name] of names.entries()) {
      await fs.writeFile(
        path.join(site, name),
        `<a href="/gone-${i}">x</a><script src="https://h${i}.example.com/a.js"></script><a href="https://l${i}.example.com/">y</a>`,
      );
    }
    const config = parseConfig(
      {
        'api-key': 'mint_test',
        domain: 'docs.example.com',
        path: 'site',
        'deployment-type': 'client-hosted',
        'browser-check': 'false',
      },
      { workspace: '/work-space' },
    ) as ExportConfig;
    const record: ExportRecord = {
      command: 'export',
      domain: 'docs.example.com',
      startedAt: 0,
      finishedAt: 1000,
      status: 'completed',
      jobId: 'se_1',
    };
    await checkReadiness(site, config, recordingReporter().reporter, record, { tempDir: site });
    const page = (i: number) => ({
      path: names[i] as string,
      url: pageUrl('docs.example.com', names[i] as string),
      title: HOSTILE[i] as string,
    });
    const report: ChangeReport = {
      format: CHANGES_FORMAT,
      version: CHANGES_VERSION,
      source: 'the earlier export in `site` (its manifest said <b>x</b>)',
      site: 'https://docs.example.com/',
      previous: { domain: 'docs.example.com', jobId: 'se_0', exportedAt: '2026-11-27T10:00:00Z' },
      current: { domain: 'docs.example.com', jobId: 'se_1', exportedAt: '2026-11-28T10:00:00Z' },
      comparedBy: 'content',
      pages: {
        before: 15,
        after: 15,
        added: [page(0), { ...page(1), redirectsTo: { path: page(4).path, url: page(4).url } }],
        removed: [page(2)],
        moved: [
          {
            ...page(3),
            previous: { path: 'old.html', url: pageUrl('docs.example.com', 'old.html') },
          },
          { ...page(5), previous: { path: page(6).path, url: page(6).url, redirected: true } },
        ],
        changed: HOSTILE.map((_, i) => page(i)),
        navigationChanged: [],
        unchanged: 0,
        comparedByBytes: 0,
      },
      assets: { added: [], removed: [], changed: [], unchanged: 0 },
      size: { before: 1, after: 1 },
    };
    record.changes = { kind: 'report', report, file: '/tmp/changes.json' };
    const text = expectShownAsWritten(
      renderExportSummary(
        record,
        'Export failed: the server said `a|b` [x](https://evil.example/) <img src=y>',
      ),
      (link) => link.startsWith('https://docs.example.com/'),
    );
    for (const name of names) expect(text).toContain(name.replace(/`/g, "'"));
    for (const title of HOSTILE) expect(text).toContain(title);
    expect(text).toContain('the server said a|b [x](https://evil.example/) <img src=y>');
    await fs.rm(site, { recursive: true, force: true });
  });

  it('names the files of a directory it replaced as written', async () => {
    const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sea-gfm-')));
    const site = path.join(workspace, 'site');
    const names = [
      '<img src="https:&#47;&#47;tracker.example&#47;p.png"> **bold**.html',
      '[link](https:&#47;&#47;evil.example) ~~s~~ www.evil.example.html',
      'a|b `c` _d_.html',
    ];
    await fs.mkdir(site);
    for (const name of names) await fs.writeFile(path.join(site, name), 'x');
    const state = await inspectTarget(site, {
      platform: process.platform,
      workspace,
      home: path.join(workspace, 'home'),
      runnerDirs: [],
      overwrite: true,
    });
    await fs.rm(workspace, { recursive: true, force: true });
    const record: ExportRecord = {
      command: 'export',
      domain: 'docs.example.com',
      startedAt: 0,
      finishedAt: 1000,
      status: 'completed',
      jobId: 'se_1',
      replacedForeign: state.kind === 'foreign' ? state.description : 'not foreign',
    };
    const text = expectShownAsWritten(renderExportSummary(record), () => false);
    expect(text).toContain(
      `Replaced\n⚠️ a directory this action did not write (it holds 3 files (`,
    );
    for (const name of names) expect(text).toContain(name);
  });

  it('links the bundle to its whole address: a space or markup in it renders nothing', () => {
    const record: ExportRecord = {
      command: 'export',
      domain: 'docs.example.com',
      startedAt: 0,
      finishedAt: 1000,
      status: 'completed',
      jobId: 'se_1',
      showBundleUrl: true,
      bundleUrl:
        'http://127.0.0.1:9/b.tar.gz?X-Sig=abc <img src=https://tracker.example/p.png> (x)\\[y]* é',
    };
    const summary = renderExportSummary(record);
    const { links, text } = read(render(summary));
    expect(expectShownAsWritten(summary, () => true)).not.toContain('<img');
    expect(links).toEqual([
      'http://127.0.0.1:9/b.tar.gz?X-Sig=abc%20%3Cimg%20src=https://tracker.example/p.png%3E%20%28x%29%5C%5By%5D*%20%C3%A9',
    ]);
    expect(text).toContain('Bundle link\ndownload');
    // A presigned link the API sends (no character a URL does not allow) is linked as it is.
    const signed =
      'https://acct.blob.core.windows.net/e/se_1.zip?sv=2022-11-02&sp=r&sig=aB3%2BcD4%2FeF5%3D&x=a+b/c=';
    expect(read(render(renderExportSummary({ ...record, bundleUrl: signed }))).links).toEqual([
      signed.replace(/&/g, '&amp;'),
    ]);
  });

  it('shows what the agent job’s server and its prompt hold as written', () => {
    const hostile = HOSTILE.join(' ');
    const text = expectShownAsWritten(
      renderAgentSummary(
        {
          command: 'agent',
          projectId: 'docs<b>|x',
          prompt: hostile,
          startedAt: 0,
          finishedAt: 1000,
          waited: true,
          jobId: 'job|1',
          status: 'failed',
          model: hostile,
          repository: 'acme/docs',
          ref: hostile,
          prLink: 'https://github.com/acme/docs/pull/1',
        },
        `Agent job job|1 failed: ${hostile}`,
      ),
      (link) => link === 'https://github.com/acme/docs/pull/1',
    );
    expect(text).toContain('Agent job in docs<b>|x failed');
    // In the facts table, and in the error line (a code span there between lone backticks).
    expect(text).toContain(`Model\n${hostile}`);
    expect(text).toContain(`Error: Agent job job|1 failed: ${hostile}`);
  });
});
