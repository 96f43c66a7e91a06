import { describe, expect, it } from 'vitest';
import { describe as describeReadiness } from '../../src/airgap/check.js';
import {
  type HostFinding,
  MAX_UNCONFIRMED_HOSTS,
  type Readiness,
} from '../../src/airgap/findings.js';
import { reportOutcome, type RunnerCommands } from '../../src/github.js';
import { CHANGES_FORMAT, CHANGES_VERSION, type ChangeReport } from '../../src/changes/compare.js';
import { Redactor } from '../../src/redact.js';
import {
  fitSummary,
  renderExportSummary,
  renderReadiness,
  SUMMARY_MAX_BYTES,
} from '../../src/report.js';
import { readinessOf } from '../support/readiness.js';

/** A host the site loads from, found once in `file`. */
const loadingHost = (host: string, line = 1, file = 'index.html'): HostFinding => ({
  host,
  role: 'load',
  severity: 'warning',
  count: 1,
  vias: ['<script src>'],
  locations: [{ file, line, url: `https://${host}/a.js` }],
  requestedBy: [],
});

/** The export summary of a run whose only check is this readiness check. */
const summaryOf = (checked: Readiness) =>
  renderExportSummary({
    command: 'export',
    domain: 'docs.example.com',
    startedAt: 0,
    checks: [describeReadiness(checked)],
    readiness: checked,
  });

/** The rows of the table under `header`, split into cells as GFM splits them. */
function tableRows(markdown: string, header: string): string[][] {
  const lines = markdown.split(/\r\n?|\n/);
  const start = lines.indexOf(header);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

// File names are the archive's: any byte but NUL and `/` (a line break, a lone CR, a pipe).
const hostile = 'guides/a|b\n\n<img src=x>\r\r# Owned.html';

describe('the readiness part of the summary', () => {
  it('counts the hosts named in scripts, and says when the count stopped at its bound', () => {
    expect(renderReadiness(readinessOf({ unconfirmedHosts: 12 }))).toContain(
      'URL strings in scripts name 12 more host(s) with no sign',
    );
    expect(renderReadiness(readinessOf({ unconfirmedHosts: MAX_UNCONFIRMED_HOSTS }))).toContain(
      `name at least ${MAX_UNCONFIRMED_HOSTS} more host(s)`,
    );
  });

  it('keeps a broken link on its row whatever its file name or address holds', () => {
    const markdown = renderReadiness(
      readinessOf({
        links: {
          checked: 2,
          brokenCount: 2,
          broken: [
            { file: hostile, line: 1, column: 1, url: 'gone.html', target: '/guides/gone.html' },
            { file: 'index.html', line: 3, column: 9, url: '/a|b', target: '/a|b' },
          ],
          severity: 'warning',
        },
      }),
    );
    const rows = tableRows(markdown, '| File | Line | Link | Resolves to |');
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.length)).toEqual([4, 4]);
    expect(rows[1]?.[2]).toBe('`/a\\|b`');
    expect(markdown).not.toMatch(/^(<img|# Owned)/m);
    expect(markdown).not.toContain('\r');
  });

  it('keeps a host on its row whatever the file it was found in is named', () => {
    const markdown = renderReadiness(
      readinessOf({
        hosts: [loadingHost('cdn.example.net', 1, hostile)],
      }),
    );
    expect(tableRows(markdown, '| Host | What | Level | Count | Found in |')).toHaveLength(1);
    expect(markdown).not.toMatch(/^(<img|# Owned)/m);
  });

  it('stays far below the 1 MiB GitHub accepts when an archive names thousands of hosts', () => {
    const label = 'x'.repeat(60);
    const hosts = Array.from({ length: 20_000 }, (_, i) =>
      loadingHost(`h${i}.${label}.${label}.${label}.example`, i + 1, 'many.html'),
    );
    const checked = readinessOf({ hosts });
    const markdown = summaryOf(checked);
    expect(Buffer.byteLength(markdown)).toBeLessThan(256 * 1024);
    expect(markdown).toContain('and 19500 more, in the full report');
    expect(describeReadiness(checked)).toContain('and 19990 more');
  });

  it('names the hosts in the check line as text: no emphasis, no link', () => {
    const hosts = ['www.example.net', '*a*.example', '~~b~~.example'].map((h) => loadingHost(h));
    const markdown = summaryOf(readinessOf({ hosts }));
    const line = markdown.split('\n').find((l) => l.startsWith('- client-hosted check'));
    expect(line).toContain('www\\.example.net, \\*a\\*.example, \\~\\~b\\~\\~.example');
  });

  it('shortens a long link address in its row; the report files keep it whole', () => {
    const url = `/guides/${'a'.repeat(100_000)}`;
    const markdown = renderReadiness(
      readinessOf({
        links: {
          checked: 1,
          brokenCount: 1,
          broken: [{ file: 'index.html', line: 1, column: 1, url, target: url }],
          severity: 'warning',
        },
      }),
    );
    const [row] = tableRows(markdown, '| File | Line | Link | Resolves to |');
    expect(row?.[2]).toBe(`\`${url.slice(0, 300)}…\``);
    expect(markdown.length).toBeLessThan(2000);
  });
});

describe('one long name from the archive', () => {
  const long = `guide?${'x'.repeat(1_100_000)}`;
  const served: Readiness = readinessOf({
    missingFiles: [{ path: `/${long}`, page: `${long}.html` }],
    serving: {
      extensionless: {
        count: 1,
        example: { file: 'index.html', line: 1, url: long, served: `${long}.html` },
      },
      directoryTrap: { count: 0 },
      directoryIndex: { count: 0 },
      needsRewrites: true,
      has404Page: false,
    },
  });
  const page = (name: string) => ({
    path: `${name}.html`,
    url: `https://docs.example.com/${name}`,
    title: name === 'guide' ? long : name,
  });
  const report: ChangeReport = {
    format: CHANGES_FORMAT,
    version: CHANGES_VERSION,
    source: 'the earlier export in `site`',
    site: 'https://docs.example.com/',
    previous: { domain: 'docs.example.com', jobId: 'se_0', exportedAt: '2026-11-27T10:00:00Z' },
    current: { domain: 'docs.example.com', jobId: 'se_1', exportedAt: '2026-11-28T10:00:00Z' },
    comparedBy: 'content',
    pages: {
      before: 3,
      after: 2,
      added: [],
      removed: [page('secret-removal')],
      moved: [],
      changed: [page('guide')],
      navigationChanged: [],
      unchanged: 1,
      comparedByBytes: 0,
    },
    assets: { added: [], removed: [], changed: [], unchanged: 0 },
    size: { before: 1, after: 1 },
  };

  it('is cut in the serving advice, the paths no file serves and the change lists, as in a cell', () => {
    const markdown = renderExportSummary({
      command: 'export',
      domain: 'docs.example.com',
      startedAt: 0,
      readiness: served,
      changes: { kind: 'report', report, file: '/tmp/changes.json' },
    });
    expect(markdown.length).toBeLessThan(10_000);
    expect(markdown).toContain(`(e.g. \`${long.slice(0, 300)}…\` → \`${long.slice(0, 300)}…\`)`);
    expect(markdown).toContain(`\`/${long.slice(0, 299)}…\` (from \`${long.slice(0, 300)}…\`)`);
    expect(markdown).toContain('**Removed pages** (1)');
  });

  it('never pushes the change report or the error out of the summary', async () => {
    // Rows of hosts, each found in many files with long names: past 1 MiB on their own.
    const hosts = Array.from({ length: 300 }, (_, i) => ({
      ...loadingHost(`h${i}.example.com`),
      locations: Array.from({ length: 20 }, (_, j) => ({
        file: `${'p'.repeat(290)}${j}.html`,
        line: 1,
        url: '',
      })),
    }));
    const written: string[] = [];
    const commands = {
      error: () => undefined,
      debug: () => undefined,
      writeSummary: (markdown: string) => {
        written.push(markdown);
        return Promise.resolve();
      },
    } as unknown as RunnerCommands;
    await reportOutcome(
      {
        record: {
          command: 'export',
          domain: 'docs.example.com',
          startedAt: 0,
          readiness: { ...served, hosts },
          changes: { kind: 'report', report, file: '/tmp/changes.json' },
        },
        error: new Error('the site has 3 broken links'),
      },
      new Redactor(),
      commands,
      '/work',
    );
    const summary = written[0] as string;
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toContain('**The readiness findings stop here**');
    expect(summary).toContain('**Removed pages** (1)');
    expect(summary).toContain('secret-removal');
    expect(summary).toMatch(/\*\*Error:\*\* the site has 3 broken links\n$/);
  });
});

describe('a summary past what GitHub accepts', () => {
  it('is cut at the last whole line below 1 MiB, with a line that says so', () => {
    const rows = Array.from(
      { length: 30_000 },
      (_, i) => `| \`page-${i}.html\` | ${'é'.repeat(40)} |`,
    );
    const markdown = ['#### Pages', '', '| Page | Note |', '|---|---|', ...rows, ''].join('\n');
    const fitted = fitSummary(markdown);
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(fitted).toMatch(
      /\n\n\*\*The summary stops here:\*\* GitHub shows at most 1 MiB of it\..*\n$/,
    );
    const kept = fitted.split('\n\n**The summary stops here')[0] as string;
    const lastRow = kept.split('\n').at(-1) as string;
    expect(rows).toContain(lastRow);
    expect(fitSummary('#### Short\n')).toBe('#### Short\n');
  });

  it('is written cut, not dropped whole by the runner', async () => {
    const written: string[] = [];
    const commands = {
      info: () => undefined,
      warning: () => undefined,
      error: () => undefined,
      writeSummary: (markdown: string) => {
        written.push(markdown);
        return Promise.resolve();
      },
    } as unknown as RunnerCommands;
    const checks = Array.from({ length: 5000 }, (_, i) => `check ${i}: ${'x'.repeat(400)}`);
    await reportOutcome(
      { record: { command: 'export', domain: 'docs.example.com', startedAt: 0, checks } },
      new Redactor(),
      commands,
      '/work',
    );
    expect(written).toHaveLength(1);
    expect(Buffer.byteLength(written[0] as string)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(written[0]).toContain('The summary stops here');
  });
});
