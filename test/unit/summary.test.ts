import { describe, expect, it } from 'vitest';
import {
  CHANGES_FORMAT,
  CHANGES_VERSION,
  type ChangeReport,
  type PageChange,
  type PageMove,
} from '../../src/changes/compare.js';
import { pageUrl } from '../../src/changes/site-files.js';
import {
  describeTimeout,
  type AgentRecord,
  describeExpiry,
  type ExportRecord,
  promptHeadline,
  renderAgentSummary,
  renderExportSummary,
} from '../../src/report.js';

const NOW = Date.parse('2026-11-23T11:35:00Z');
const URL = 'https://store.example.com/b.tar.gz?X-Amz-Signature=abc';

const exported: ExportRecord = {
  command: 'export',
  domain: 'docs.example.com',
  startedAt: NOW - 6000,
  finishedAt: NOW,
  jobId: 'se_3f9a2c1b8e7d4a06',
  status: 'completed',
  pageCount: 24,
  bundleUrl: URL,
  bundleUrlMasked: false,
  expiresAt: new Date('2026-11-23T12:34:00Z'),
  sitePath: '/home/runner/work/repo/repo/site',
  pageUrl: 'https://docs.example.com/',
};

describe('the export summary', () => {
  it('has no empty header row: the first fact heads the table', () => {
    const summary = renderExportSummary(exported);
    expect(summary).not.toContain('| | |');
    expect(summary).toMatch(
      /^### ✅ Static export of docs.example.com\n\n\| Job \| `se_3f9a2c1b8e7d4a06` \|\n\|---\|---\|\n\| Status \| completed \|/,
    );
  });

  it('gives the expiry relative to the end of the run, with the time in UTC', () => {
    expect(renderExportSummary(exported)).toContain('| Link expires | in 59 min (12:34 UTC) |');
  });

  it('links the bundle only when asked to, and never a masked one', () => {
    expect(renderExportSummary(exported)).not.toContain(URL);
    expect(renderExportSummary(exported)).toContain('`show-bundle-url: true` shows it');
    expect(renderExportSummary({ ...exported, showBundleUrl: true })).toContain(
      `| Bundle link | [download](${URL}) |`,
    );
    const masked = renderExportSummary({ ...exported, showBundleUrl: true, bundleUrlMasked: true });
    expect(masked).not.toContain(URL);
    expect(masked).toContain('| Bundle link | (masked) |');
  });

  it('shows paths inside the workspace relative to it', () => {
    const summary = renderExportSummary(exported, undefined, {
      workspace: '/home/runner/work/repo/repo',
    });
    expect(summary).toContain('| Site | `site` |');
    expect(summary).not.toContain('/home/runner');
    expect(
      renderExportSummary({ ...exported, sitePath: '/srv/docs' }, undefined, {
        workspace: '/home/runner/work/repo/repo',
      }),
    ).toContain('| Site | `/srv/docs` |');
  });

  it('names the site address', () => {
    expect(renderExportSummary(exported)).toContain('| Site URL | https://docs.example.com/ |');
  });
});

describe('describeExpiry', () => {
  it.each([
    ['2026-11-23T11:35:20Z', 'in under a minute (11:35 UTC)'],
    ['2026-11-23T12:34:00Z', 'in 59 min (12:34 UTC)'],
    ['2026-11-23T17:35:00Z', 'in 6 h (17:35 UTC)'],
    ['2026-11-30T11:35:00Z', 'in 7 days (2026-11-30 11:35 UTC)'],
    ['2026-11-23T11:00:00Z', 'expired (11:00 UTC)'],
  ])('%s -> %s', (at, text) => {
    expect(describeExpiry(new Date(at), NOW)).toBe(text);
  });
});

describe('the agent summary', () => {
  const agent: AgentRecord = {
    command: 'agent',
    projectId: 'my-docs',
    prompt: 'Fix the typos',
    startedAt: NOW - 1000,
    finishedAt: NOW,
    waited: true,
    jobId: 'job1',
    status: 'completed',
    prLink: 'https://github.com/acme/docs/pull/42',
  };

  it('headlines the pull request', () => {
    expect(renderAgentSummary(agent)).toMatch(
      /^### ✅ Agent job in my-docs opened \[acme\/docs#42\]\(https:\/\/github.com\/acme\/docs\/pull\/42\)\n\n\| Pull request \| \[https:\/\/github.com\/acme\/docs\/pull\/42\]\(https:/,
    );
  });

  it('names the host of a pull request that is not on github.com', () => {
    for (const [prLink, name] of [
      ['https://evil.example/acme/docs/pull/7', 'acme/docs#7 on evil.example'],
      ['https://github.com@evil.example/acme/docs/pull/7', 'acme/docs#7 on evil.example'],
      ['https://git.example.com:8443/acme/docs/pull/7', 'acme/docs#7 on git.example.com:8443'],
      [
        'https://gitlab.example.com/acme/docs/-/merge_requests/7',
        'pull request on gitlab.example.com',
      ],
    ] as const) {
      expect(renderAgentSummary({ ...agent, prLink }).split('\n')[0]).toBe(
        `### ✅ Agent job in my-docs opened [${name}](${prLink})`,
      );
    }
  });

  it('keeps what the server or a reviewer wrote from linking: backtick runs, bare addresses, the prompt', () => {
    const summary = renderAgentSummary(
      {
        ...agent,
        status: 'failed',
        model: 'see https://evil.example/login',
        repository: 'acme/docs',
        ref: 'www.evil.example',
        prompt: '![x](https://tracker.example/p.png) <Tabs> please',
      },
      'Agent job job1 failed: ```[Sign in again](https://evil.example/login)`. Follow it with `agent-job-id: job1`.',
    );
    expect(summary).not.toMatch(/(?<!\\)\]\(https:\/\/(evil|tracker)/);
    expect(summary).not.toMatch(/(?<!\\)<Tabs/);
    expect(summary).toContain('| Model | see https\\://evil.example/login |');
    expect(summary).toContain('@ www\\.evil.example |');
    // Nor is an address in an error line a link.
    expect(summary).not.toMatch(/(?<!\\)https:\/\/evil/);
  });

  it('shows what the server sent as text: no link, image or HTML of its own, our code spans kept', () => {
    const summary = renderAgentSummary(
      {
        ...agent,
        status: 'failed',
        repository: 'acme/docs <img src="https://evil.example/x.png">',
        ref: 'main [Sign in again](https://evil.example/login)',
        model: '![x](https://evil.example/p.png)',
      },
      'Agent job job1 failed: [Re-authenticate](https://evil.example/) <b>now</b>. Follow it with `agent-job-id: job1`.',
    );
    expect(summary).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
    expect(summary).not.toMatch(/(?<!\\)<(img|b)\b/);
    expect(summary).toContain('Follow it with `agent-job-id: job1`.');
    expect(summary).toContain('| Status | failed |');
  });

  it('cuts what the server sent as the repository, branch, model or status to a cell', () => {
    const long = (word: string) => `${word}-${'x'.repeat(200_000)}`;
    const summary = renderAgentSummary({
      ...agent,
      status: long('failing'),
      repository: long('acme/docs'),
      ref: long('branch'),
      model: long('model'),
    });
    expect(summary.length).toBeLessThan(4000);
    for (const name of ['Status', 'Repository', 'Model']) {
      expect(summary).toMatch(new RegExp(`\\| ${name} \\| [^|\\n]{20,}… \\|`));
    }
  });

  it('says when there is none', () => {
    const { prLink: _, ...none } = agent;
    expect(renderAgentSummary(none)).toMatch(
      /^### ✅ Agent job in my-docs: no changes, no pull request/,
    );
  });
});

describe('promptHeadline', () => {
  it('cuts at a word boundary, never inside a word', () => {
    const key = 'mint_0123456789abcdefghij';
    expect(promptHeadline(`Rotate ${'a'.repeat(52)} ${key} everywhere`)).toBe(
      `Rotate ${'a'.repeat(52)}…`,
    );
    expect(promptHeadline('one\ntwo\nthree')).toBe('one (+2 more lines)');
  });
});

describe('a timeout during the check of the extracted site', () => {
  it('names the check, not the download, and keeps path as it was', () => {
    const message = describeTimeout(
      {
        command: 'export',
        domain: 'docs.example.com',
        startedAt: 0,
        jobId: 'se_1',
        status: 'completed',
        bundleUrl: 'https://store.example.com/b.tar.gz',
        checking: true,
      },
      3000,
    );
    expect(message).toMatch(
      /^The bundle of export job se_1 was downloaded and extracted, but checking its site \(links, hosts outside it\) did not end before the 3\.0s timeout passed; `path` was left as it was\./,
    );
    expect(message).not.toContain('could not be downloaded');
    expect(message).toContain('`job-id: se_1`');
  });
});

describe('the change report in the summary', () => {
  const change = (file: string) => ({ path: file, url: pageUrl('docs.example.com', file) });
  const report = (moved: PageMove[], added: PageChange[]): ChangeReport => ({
    format: CHANGES_FORMAT,
    version: CHANGES_VERSION,
    source: 'the earlier export in `site`',
    site: 'https://docs.example.com/',
    previous: { domain: 'docs.example.com', jobId: 'se_0', exportedAt: '2026-11-27T10:00:00Z' },
    current: { domain: 'docs.example.com', jobId: 'se_1', exportedAt: '2026-11-28T10:00:00Z' },
    comparedBy: 'content',
    pages: {
      before: 2,
      after: 3,
      added,
      removed: [],
      moved,
      changed: [],
      navigationChanged: [],
      unchanged: 1,
      comparedByBytes: 0,
    },
    assets: { added: [], removed: [], changed: [], unchanged: 0 },
    size: { before: 1, after: 1 },
  });

  it('shows each address as a reader spells it, and links it encoded', () => {
    const moved = { ...change('ガイド/入門.html'), previous: change('guides/café au lait.html') };
    const markdown = renderExportSummary({
      ...exported,
      changes: {
        kind: 'report',
        report: report([moved], [change('c#/100%.html')]),
        file: '/tmp/changes.json',
      },
    });
    expect(markdown).toContain(
      '- [/ガイド/入門](https://docs.example.com/%E3%82%AC%E3%82%A4%E3%83%89/%E5%85%A5%E9%96%80) (was `/guides/café au lait`)',
    );
    expect(markdown).toContain('- [/c#/100%](https://docs.example.com/c%23/100%25)');
  });

  it('shows the dollars of a title and an address as written, never as math', () => {
    const page = { ...change('pricing/$5-or-$10.html'), title: 'Pricing: $5 or $10' };
    const markdown = renderExportSummary({
      ...exported,
      changes: { kind: 'report', report: report([], [page]), file: '/tmp/changes.json' },
    });
    const $ = '<span>$</span>';
    expect(markdown).toContain(
      `- Pricing\\: ${$}5 or ${$}10 — [/pricing/${$}5-or-${$}10](https://docs.example.com/pricing/$5-or-$10)`,
    );
  });

  it('shows removed pages and the old address of a moved one as paths, never as links that answer 404', () => {
    const moved = { ...change('start/setup.html'), previous: change('guides/setup.html') };
    const changes = report([moved], []);
    changes.pages.removed = [{ ...change('guides/gone.html'), title: 'Gone' }];
    const markdown = renderExportSummary({
      ...exported,
      changes: { kind: 'report', report: changes, file: '/tmp/changes.json' },
    });
    expect(markdown).toContain('**Removed pages** (1)\n\n- Gone — `/guides/gone`\n');
    expect(markdown).toContain(
      '- [/start/setup](https://docs.example.com/start/setup) (was `/guides/setup`)',
    );
    expect(markdown).not.toContain('https://docs.example.com/guides/');
  });

  it('says when a move only changed the letter case of the address', () => {
    const moves = [
      { ...change('guides/quick-start.html'), previous: change('guides/Quick-Start.html') },
      { ...change('guides/élan.html'), previous: change('guides/Élan.html') },
      { ...change('start/setup.html'), previous: change('guides/setup.html') },
    ];
    const markdown = renderExportSummary({
      ...exported,
      changes: { kind: 'report', report: report(moves, []), file: '/tmp/changes.json' },
    });
    expect(markdown).toContain(
      '- [/guides/quick-start](https://docs.example.com/guides/quick-start) (was `/guides/Quick-Start`: only the letter case changed, and a case-sensitive host no longer serves the old address)',
    );
    expect(markdown).toContain('(was `/guides/Élan`: only the letter case changed');
    expect(markdown).toContain('(was `/guides/setup`)');
  });

  it('says which moved pages left a redirect at their old address, and where a page redirects', () => {
    const moved = {
      ...change('start/setup.html'),
      previous: { ...change('guides/setup.html'), redirected: true as const },
    };
    const alias = { ...change('guides/alias.html'), redirectsTo: change('start/setup.html') };
    const changes = report([moved, { ...change('b.html'), previous: change('a.html') }], [alias]);
    const markdown = renderExportSummary({
      ...exported,
      changes: { kind: 'report', report: changes, file: '/tmp/changes.json' },
    });
    expect(markdown).toContain(
      '| Pages | 2 → 3: 1 added, 0 removed, 2 moved (1 leaving a redirect at the old address), 0 changed |',
    );
    expect(markdown).toContain(
      '- [/start/setup](https://docs.example.com/start/setup) (was `/guides/setup`, which now redirects here)',
    );
    expect(markdown).toContain(
      '- [/guides/alias](https://docs.example.com/guides/alias) → redirects to [/start/setup](https://docs.example.com/start/setup)',
    );
  });

  it('says how many pages were compared by their bytes for want of a fingerprint', () => {
    const changes = report([], []);
    const summary = (comparedByBytes: number) =>
      renderExportSummary({
        ...exported,
        changes: {
          kind: 'report',
          report: { ...changes, pages: { ...changes.pages, comparedByBytes } },
          file: '/tmp/changes.json',
        },
      });
    expect(summary(0)).toContain(
      '| Compared by | what a reader sees (build ids and hashed asset names left out) |',
    );
    expect(summary(3)).toContain(
      '| Compared by | what a reader sees (build ids and hashed asset names left out); ⚠️ 3 pages by their bytes, for want of a fingerprint in one export, so their rebuild counts as a change |',
    );
  });

  it('says in one line that an export changes nothing a reader sees, only when it does not', () => {
    const empty = report([], []);
    empty.pages = { ...empty.pages, before: 3, after: 3, unchanged: 3 };
    const summary = (changed: ChangeReport) =>
      renderExportSummary({
        ...exported,
        changes: { kind: 'report', report: changed, file: '/tmp/changes.json' },
      });
    const line = /^Nothing a reader sees changes: .*$/m;
    expect(summary(empty)).toMatch(line);
    expect(summary(report([], [change('new.html')]))).not.toMatch(line);
    const navigation = { ...empty.pages, navigationChanged: [change('a.html')] };
    expect(summary({ ...empty, pages: navigation })).not.toMatch(line);
    const assets = { ...empty.assets, changed: [{ path: 'logo.png' }] };
    expect(summary({ ...empty, assets })).not.toMatch(line);
  });

  it("never lets a title's direction override turn the rest of its line around", () => {
    // U+202E writes what follows right to left up to the end of the list item: the link's
    // address with it. The title is the site's, or an earlier manifest's.
    const spoof = { ...change('guides/setup.html'), title: 'Setup \u202Efdp.exe' };
    const isolated = { ...change('guides/b.html'), title: 'B \u2067עברית' };
    const markdown = renderExportSummary({
      ...exported,
      changes: {
        kind: 'report',
        report: report([], [spoof, isolated]),
        file: '/tmp/changes.json',
      },
    });
    expect(markdown).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(markdown).toContain('- Setup \\u202Efdp.exe — [/guides/setup](');
    expect(markdown).toContain('- B \\u2067עברית — [/guides/b](');
  });

  it('keeps encoded what a name holds that is not shown: a line break, a direction override', () => {
    const markdown = renderExportSummary({
      ...exported,
      changes: {
        kind: 'report',
        report: report([], [change('a\nb.html'), change('evil\u202Egpj.html')]),
        file: '/tmp/changes.json',
      },
    });
    expect(markdown).toContain('- [/a%0Ab](https://docs.example.com/a%0Ab)');
    expect(markdown).toContain('- [/evil%E2%80%AEgpj](https://docs.example.com/evil%E2%80%AEgpj)');
  });
});
