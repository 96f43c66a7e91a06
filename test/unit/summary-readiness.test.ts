import { describe, expect, it } from 'vitest';
import { describe as describeReadiness } from '../../src/airgap/check.js';
import type { HostFinding, Readiness } from '../../src/airgap/findings.js';
import { renderExportSummary, renderReadiness } from '../../src/report.js';

const none = { count: 0 };
const readiness = (overrides: Partial<Readiness>): Readiness => ({
  deploymentType: 'client-hosted',
  scanned: 2,
  pages: 2,
  durationMs: 5,
  hosts: [],
  findings: [],
  findingsDropped: 0,
  metadata: 0,
  unconfirmedHosts: 0,
  links: { checked: 1, brokenCount: 0, broken: [], severity: 'warning' },
  missingFiles: [],
  serving: {
    extensionless: none,
    directoryTrap: none,
    directoryIndex: none,
    needsRewrites: false,
    has404Page: false,
  },
  ...overrides,
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
  it('keeps a broken link on its row whatever its file name or address holds', () => {
    const markdown = renderReadiness(
      readiness({
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
      readiness({
        hosts: [
          {
            host: 'cdn.example.net',
            role: 'load',
            severity: 'warning',
            count: 1,
            vias: ['<script src>'],
            locations: [{ file: hostile, line: 1, url: 'https://cdn.example.net/x.js' }],
            requestedBy: [],
          },
        ],
      }),
    );
    expect(tableRows(markdown, '| Host | What | Level | Count | Found in |')).toHaveLength(1);
    expect(markdown).not.toMatch(/^(<img|# Owned)/m);
  });

  it('stays far below the 1 MiB GitHub accepts when an archive names thousands of hosts', () => {
    const label = 'x'.repeat(60);
    const hosts: HostFinding[] = Array.from({ length: 20_000 }, (_, i) => ({
      host: `h${i}.${label}.${label}.${label}.example`,
      role: 'load',
      severity: 'warning',
      count: 1,
      vias: ['<script src>'],
      locations: [{ file: 'many.html', line: i + 1, url: `https://h${i}.example/a.js` }],
      requestedBy: [],
    }));
    const checked = readiness({ hosts });
    const markdown = renderExportSummary({
      command: 'export',
      domain: 'docs.example.com',
      startedAt: 0,
      checks: [describeReadiness(checked)],
      readiness: checked,
    });
    expect(Buffer.byteLength(markdown)).toBeLessThan(256 * 1024);
    expect(markdown).toContain('and 19500 more, in the full report');
    expect(describeReadiness(checked)).toContain('and 19990 more');
  });
});
