import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitePathOf } from '../../src/changes/baseline.js';
import { parseConfig, type RawInputs } from '../../src/config.js';
import { InputError } from '../../src/errors.js';

/** The inputs of the change report and of agent follow-ups, parsed before any request. */

const workspace = '/work/space';
const base: RawInputs = { 'api-key': 'mint_testkey0123456789', domain: 'docs.example.com' };
const parse = (extra: RawInputs) =>
  parseConfig({ ...base, ...extra }, { workspace, home: '/home/u' });

function problemsOf(extra: RawInputs): string[] {
  try {
    parse(extra);
  } catch (err) {
    if (err instanceof InputError) return err.problems.map((p) => `${p.input}: ${p.message}`);
    throw err;
  }
  return [];
}

describe('compare-with', () => {
  it('defaults to the earlier export in path', () => {
    expect(parse({})).toMatchObject({ compareWith: { kind: 'path' } });
  });

  it.each([
    ['https://docs.example.com', 'https://docs.example.com/.static-export.json'],
    ['https://docs.example.com/', 'https://docs.example.com/.static-export.json'],
    ['https://example.com/docs', 'https://example.com/docs/.static-export.json'],
    ['https://docs.example.com/site/manifest.json', 'https://docs.example.com/site/manifest.json'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/.static-export.json'],
    ['https://docs.example.com/index.html', 'https://docs.example.com/.static-export.json'],
    ['https://example.com/docs/Index.HTM', 'https://example.com/docs/.static-export.json'],
    ['https://docs.example.com/MANIFEST.JSON', 'https://docs.example.com/MANIFEST.JSON'],
  ])('takes the site or its manifest: %s', (value, url) => {
    const config = parse({ 'compare-with': value });
    expect(config.command === 'export' && config.compareWith).toEqual({
      kind: 'url',
      url: new URL(url),
    });
  });

  it('takes a path relative to the workspace or the home directory', () => {
    expect(parse({ 'compare-with': 'previous/.static-export.json' })).toMatchObject({
      compareWith: {
        kind: 'file',
        path: path.join(workspace, 'previous/.static-export.json'),
        given: 'previous/.static-export.json',
      },
    });
    expect(parse({ 'compare-with': '~/cache/site' })).toMatchObject({
      compareWith: { kind: 'file', path: '/home/u/cache/site' },
    });
  });

  it('takes none', () => {
    expect(parse({ 'compare-with': 'none' })).toMatchObject({ compareWith: { kind: 'none' } });
  });

  it('refuses plain http to another host, other schemes and credentials', () => {
    for (const value of [
      'http://docs.example.com/',
      'ftp://docs.example.com/',
      'https://u:p@docs.example.com/',
    ]) {
      expect(problemsOf({ 'compare-with': value })).toEqual([
        expect.stringMatching(
          /^compare-with: must be none, a path, or the https address of the live site/,
        ),
      ]);
    }
  });
});

describe('where the report links pages', () => {
  const servedUnder = (compareWith: string, domain = 'docs.example.com') => {
    const config = parse({ domain, 'compare-with': compareWith });
    if (config.command !== 'export') throw new Error('not an export');
    return sitePathOf(config.compareWith, config.domain);
  };

  it.each([
    ['https://docs.example.com/docs/', '/docs'],
    ['https://docs.example.com/docs', '/docs'],
    ['https://DOCS.example.com/v2/guides/index.html', '/v2/guides'],
    ['https://docs.example.com/docs/.static-export.json', '/docs'],
    ['https://docs.example.com/caf%C3%A9/', '/caf%C3%A9'],
    ['https://docs.example.com/café/', '/caf%C3%A9'],
  ])('under the folder where the live site on the domain serves its manifest: %s', (value, at) => {
    expect(servedUnder(value)).toBe(at);
  });

  it.each([
    // The root of the site.
    'https://docs.example.com/',
    // Another host: its folder says nothing of where the domain serves the site.
    'https://example.com/docs/',
    'https://staging.docs.example.com/docs/',
    // A manifest under another name may be kept anywhere, apart from the site.
    'https://docs.example.com/manifests/docs.json',
    'site/.static-export.json',
    'none',
  ])('at the root of the domain for %s', (value) => {
    expect(servedUnder(value)).toBe('');
  });

  it('at the root of the domain when compare-with is left empty', () => {
    const config = parse({});
    expect(config.command === 'export' && sitePathOf(config.compareWith, config.domain)).toBe('');
  });
});

describe('max-removed-pages', () => {
  it.each([
    ['10', { pages: 10 }],
    ['0', { pages: 0 }],
    ['5%', { percent: 5 }],
    ['2.5 %', { percent: 2.5 }],
    ['100%', { percent: 100 }],
  ])('%s', (value, limit) => {
    expect(parse({ 'max-removed-pages': value })).toMatchObject({ maxRemovedPages: limit });
  });

  it.each(['-1', 'ten', '5 pages', '1e3'])('refuses %s', (value) => {
    expect(problemsOf({ 'max-removed-pages': value })).toEqual([
      `max-removed-pages: must be a number of pages such as 10, or a share such as 5% (at most 100%), got "${value}"`,
    ]);
  });

  it.each(['120%', '150 %', '100.5%'])('refuses %s: a share is at most all the pages', (value) => {
    expect(problemsOf({ 'max-removed-pages': value })).toEqual([
      `max-removed-pages: a share of the pages is at most 100%, got "${value}"`,
    ]);
  });
});

describe('changes-file', () => {
  it('resolves against the workspace and refuses system directories', () => {
    expect(parse({ 'changes-file': 'out/changes.json' })).toMatchObject({
      changesFile: path.join(workspace, 'out/changes.json'),
    });
    expect(problemsOf({ 'changes-file': '/etc/changes.json' })).toEqual([
      'changes-file: "/etc/changes.json" (/etc/changes.json) is inside /etc, a system directory: choose a file in the workspace',
    ]);
  });
});

describe('agent-job-id', () => {
  const agent = { command: 'agent', 'project-id': 'demo-project' };

  it('follows an existing job without a prompt, or sends the prompt to it', () => {
    expect(parse({ ...agent, 'agent-job-id': 'abc123' })).toMatchObject({
      jobId: 'abc123',
      wait: true,
    });
    expect(parse({ ...agent, 'agent-job-id': 'abc123' })).not.toHaveProperty('prompt');
    expect(
      parse({ ...agent, 'agent-job-id': 'abc123', prompt: 'Also fix the links' }),
    ).toMatchObject({
      jobId: 'abc123',
      prompt: 'Also fix the links',
    });
  });

  it('still needs a prompt or a job', () => {
    expect(problemsOf(agent)).toEqual([
      'prompt: is required for command "agent": the instruction for the agent (or set `agent-job-id` to follow an existing job)',
    ]);
  });

  it('refuses an id that would rewrite the URL path', () => {
    expect(problemsOf({ ...agent, 'agent-job-id': '../jobs' })).toEqual([
      'agent-job-id: must be an agent job id (the agent-job-id output of an earlier run), got "../jobs"',
    ]);
  });
});

describe('changes-file', () => {
  it('must be outside path, which the export replaces as a whole', () => {
    expect(problemsOf({ path: 'site', 'changes-file': 'site/changes.json' })).toEqual([
      'changes-file: "site/changes.json" (/work/space/site/changes.json) is inside `path` (/work/space/site), which the export replaces as a whole: choose a file outside it',
    ]);
    for (const outside of [
      'changes.json',
      'site-changes.json',
      '../changes.json',
      'site/../c.json',
    ])
      expect(problemsOf({ path: 'site', 'changes-file': outside })).toEqual([]);
    // Kept beside the archive, not replaced: extract false writes into path.
    expect(problemsOf({ path: 'site', extract: 'false', 'changes-file': 'site/c.json' })).toEqual(
      [],
    );
  });

  it('is judged with the runner platform’s path rules', () => {
    const problems = (() => {
      try {
        parseConfig(
          { ...base, path: 'site', 'changes-file': 'SITE\\changes.json' },
          { workspace: 'C:\\work', home: 'C:\\Users\\u', platform: 'win32' },
        );
      } catch (err) {
        if (err instanceof InputError) return err.problems.map((p) => p.input);
        throw err;
      }
      return [];
    })();
    expect(problems).toEqual(['changes-file']);
  });
});
