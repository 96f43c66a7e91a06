import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarOf } from '../support/archives.js';
import { findBrowser } from '../../src/airgap/browser.js';
import { errorLines, type Harness, listTree, startHarness } from '../support/action.js';
import { writeEarlierExport } from '../support/earlier-export.js';

const LEAKY_SITE = [
  {
    name: 'index.html',
    content:
      '<!doctype html>\n<title>Docs</title>\n<script src="https://analytics.example.com/a.js"></script>\n',
  },
  { name: 'assets/', type: 'directory' as const },
  { name: 'assets/site.css', content: '@import "https://fonts.example.com/inter.css";\n' },
];

let generated: Harness;
let leaky: Harness;
beforeAll(async () => {
  generated = await startHarness({ pageCount: 6 });
  const archive = await tarOf(LEAKY_SITE);
  leaky = await startHarness({ archiveFor: () => archive });
});
afterAll(async () => {
  await generated.stop();
  await leaky.stop();
});

async function workspaceWithPreviousSite() {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'sea-airgap-'));
  await fs.mkdir(path.join(workspace, 'site'));
  await writeEarlierExport(path.join(workspace, 'site'), { 'previous.html': 'previous export' });
  return workspace;
}

describe('deployment-type readiness check', () => {
  it("passes the emulator's self-contained site for air-gapped", async () => {
    const run = await generated.run({
      domain: 'docs.example.com',
      path: 'site',
      'deployment-type': 'air-gapped',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /air-gapped check: scanned \d+ HTML, CSS and JavaScript files; no reference leaves the site\./,
    );
    expect(run.summary).toContain('air-gapped check');
  });

  it('fails air-gapped on references outside the site, annotating file and line, leaving path untouched', async () => {
    const workspace = await workspaceWithPreviousSite();
    const run = await leaky.run(
      { domain: 'docs.example.com', path: 'site', 'deployment-type': 'air-gapped' },
      { workspace },
    );
    expect(run.code).toBe(1);
    const lines = errorLines(run);
    expect(lines).toContain(
      '::error title=Reference outside the site,file=site/index.html,line=3,col=1::https://analytics.example.com/a.js (html attribute) reaches analytics.example.com, outside the site',
    );
    expect(lines).toContain(
      '::error title=Reference outside the site,file=site/assets/site.css,line=1,col=9::https://fonts.example.com/inter.css (css @import) reaches fonts.example.com, outside the site',
    );
    expect(lines.at(-1)).toMatch(
      /not ready for an air-gapped deployment: 2 reference\(s\) to 2 host\(s\)/,
    );
    expect(await listTree(path.join(workspace, 'site'))).toEqual(['previous.html']);
    expect(run.summary).toContain(
      '| `index.html` | 3 | `https://analytics.example.com/a.js` | html attribute |',
    );
  });

  it('accepts hosts listed in allowed-hosts', async () => {
    const run = await leaky.run({
      domain: 'docs.example.com',
      path: 'site',
      'deployment-type': 'air-gapped',
      'allowed-hosts': 'analytics.example.com\n*.example.com',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /no reference leaves the site \(allowed: analytics\.example\.com, \*\.example\.com\)/,
    );
  });

  it('only warns for client-hosted, and puts the site in place', async () => {
    const run = await leaky.run({
      domain: 'docs.example.com',
      path: 'site',
      'deployment-type': 'client-hosted',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .filter((l) => l.startsWith('::warning title=Reference outside the site')),
    ).toHaveLength(2);
    expect(await listTree(path.join(run.workspace, 'site'))).toEqual([
      'assets/site.css',
      'index.html',
    ]);
  });

  it('skips the scan for cloud', async () => {
    const run = await leaky.run({ domain: 'docs.example.com', path: 'site' });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('check: scanned');
  });

  it('says the site was not checked when it is not extracted', async () => {
    const run = await leaky.run({
      domain: 'docs.example.com',
      download: 'false',
      'deployment-type': 'air-gapped',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /::notice::deployment-type is air-gapped, but the site is not extracted here/,
    );
  });
});

const browser = findBrowser();
if (!browser)
  console.log(
    'Skipping the headless browser checks: no Chromium (apt install chromium-headless-shell).',
  );

describe.skipIf(!browser)('headless browser check', () => {
  let dynamic: Harness;
  beforeAll(async () => {
    const archive = await tarOf([
      {
        name: 'index.html',
        content:
          "<!doctype html><title>Docs</title><img src=\"missing.png\"><script>fetch(['https:', '', 'search.example.com', 'q'].join('/')).catch(() => {});</script>\n",
      },
    ]);
    dynamic = await startHarness({ archiveFor: () => archive });
  });
  afterAll(async () => {
    await dynamic.stop();
  });

  it('catches a request built at run time, which no static scan sees, and a missing file', async () => {
    const workspace = await workspaceWithPreviousSite();
    const run = await dynamic.run(
      { domain: 'docs.example.com', path: 'site', 'deployment-type': 'air-gapped' },
      { workspace },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/no reference leaves the site/);
    expect(run.stdout).toMatch(
      /Headless browser check \(.+, network refused\): index\.html made 1 request\(s\) outside the site and 1 to missing files\./,
    );
    expect(errorLines(run)).toContain(
      '::error title=Request outside the site,file=site/index.html::Loading index.html requested https://search.example.com/q, outside the site',
    );
    expect(run.stdout).toContain(
      '::warning title=Missing file,file=site/index.html::Loading index.html requested',
    );
    expect(errorLines(run).at(-1)).toMatch(
      /1 request\(s\) outside the site when index\.html loads/,
    );
    expect(await listTree(path.join(workspace, 'site'))).toEqual(['previous.html']);
  });

  it('can be turned off', async () => {
    const run = await dynamic.run({
      domain: 'docs.example.com',
      path: 'site',
      'deployment-type': 'air-gapped',
      'browser-check': 'false',
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('Headless browser check');
  });
});
