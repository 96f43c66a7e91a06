import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig, type RawInputs } from '../../src/config.js';
import { InputError } from '../../src/errors.js';
import { ACTION_DEFAULTS } from '../support/action-yml.js';

const KEY = 'mint_testkey0123456789';
const workspace = '/work/space';
const base: RawInputs = { 'api-key': KEY, domain: 'docs.example.com' };

function parse(extra: RawInputs) {
  return parseConfig({ ...base, ...extra }, { workspace });
}

function problemsOf(extra: RawInputs): { input: string; message: string }[] {
  try {
    parse(extra);
  } catch (err) {
    if (err instanceof InputError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('parseConfig', () => {
  it('applies the documented defaults for an export', () => {
    const config = parse({});
    expect(config).toMatchObject({
      command: 'export',
      domain: 'docs.example.com',
      download: true,
      extract: true,
      path: path.join(workspace, 'static-export'),
      timeoutMs: 30 * 60_000,
      pollInterval: 'auto',
      deploymentType: 'cloud',
      maskBundleUrl: false,
    });
    expect(config.baseUrl.href).toBe('https://api.mintlify.com/');
  });

  it.each([
    ['export', base],
    ['agent', { 'api-key': KEY, command: 'agent', 'project-id': 'demo-project', prompt: 'x' }],
  ] as const)(
    'applies, for %s, the default action.yml documents for every input left out',
    (_command, inputs) => {
      // The runner fills in action.yml's defaults; the CLI leaves the inputs out.
      const plain = (raw: RawInputs) => JSON.parse(JSON.stringify(parseConfig(raw, { workspace })));
      expect(Object.keys(ACTION_DEFAULTS).length).toBeGreaterThan(10);
      for (const [name, value] of Object.entries(ACTION_DEFAULTS)) {
        if (name in inputs) continue;
        expect(plain({ ...inputs, [name]: value }), name).toEqual(plain(inputs));
      }
    },
  );

  it.each([
    ['timeout', '90s', { timeoutMs: 90_000 }],
    ['timeout', '15m', { timeoutMs: 900_000 }],
    ['timeout', '1h', { timeoutMs: 3_600_000 }],
    ['timeout', '120', { timeoutMs: 120_000 }],
    ['timeout', '1h30m', { timeoutMs: 5_400_000 }],
    ['poll-interval', '5s', { pollInterval: 5000 }],
    ['poll-interval', '0.5', { pollInterval: 500 }],
    ['base-url', 'http://127.0.0.1:4010', {}],
    ['base-url', 'http://localhost:4010/', {}],
    ['base-url', 'http://[::1]:4010', {}],
    ['base-url', 'https://docs-admin.internal/api/', {}],
    ['domain', 'Docs.Example.COM', { domain: 'docs.example.com' }],
    ['download', 'False', { download: false }],
    ['extract', 'FALSE', { extract: false }],
    ['mask-bundle-url', 'true', { maskBundleUrl: true }],
    ['deployment-type', 'air-gapped', { deploymentType: 'air-gapped' }],
    [
      'export-paths',
      '/guides\n/reference, /api',
      { exportPaths: ['/guides', '/reference', '/api'] },
    ],
    ['path', 'out/site', { path: path.join(workspace, 'out/site') }],
    // An IPv6 host as the check names it: bracketed, in its shortest form.
    [
      'allowed-hosts',
      'CDN.example.com, [FD00:0::5]:8443, fd00::6, *.corp.example.com',
      { allowedHosts: ['cdn.example.com', '[fd00::5]:8443', '[fd00::6]', '*.corp.example.com'] },
    ],
    ['max-extract-size', '512MB', { limits: { maxBytes: 512 * 1024 ** 2, maxEntries: 500_000 } }],
  ])('accepts %s = %j', (input, value, expected) => {
    expect(parse({ [input]: value })).toMatchObject(expected);
  });

  it('keeps a path prefix of base-url without its trailing slash', () => {
    expect(parse({ 'base-url': 'https://docs-admin.internal/api/' }).baseUrl.pathname).toBe('/api');
  });

  it.each([
    ['domain', 'https://docs.example.com', /bare hostname.*remove the scheme/],
    ['domain', 'docs.example.com/guides', /path/],
    ['domain', 'docs example.com', /whitespace/],
    ['domain', 'docs.example.com:443', /port/],
    ['domain', 'docs.example.com.', /ends with a dot/],
    ['domain', '-docs.example.com', /labels/],
    ['domain', 'docs_site.example.com', /labels/],
    ['base-url', 'http://api.example.com', /only https is allowed, except for localhost/],
    ['base-url', 'ftp://api.example.com', /only https/],
    ['base-url', 'not a url', /not a URL/],
    ['base-url', 'https://user:pw@api.example.com', /credentials/],
    ['base-url', 'https://api.example.com/?x=1', /query string/],
    ['base-url', 'api.example.com', /has no scheme: write https:\/\/api\.example\.com/],
    ['base-url', 'localhost:4010', /has no scheme: write http:\/\/localhost:4010/],
    [
      'base-url',
      'https://api.mintlify.com/v1/',
      /ends with \/v1, which each request adds itself .*: drop it, as in https:\/\/api\.mintlify\.com$/,
    ],
    [
      'base-url',
      'https://gw.example.com/docs-admin/v2',
      /drop it, as in https:\/\/gw\.example\.com\/docs-admin$/,
    ],
    ['api-key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', /starts with "sk_live_", not "mint_"/],
    ['api-key', 'ghp_abcdefghijklmnopqrstuvwxyz012345', /starts with "ghp_", not "mint_"/],
    // The platform's other keys: refused before they are sent, with what they are.
    ['api-key', 'mint_dsc_0123456789abcdef', /"mint_dsc_", the prefix of an assistant API key/],
    ['api-key', 'mint_us_0123456789abcdef', /"mint_us_", the prefix of an Index API key/],
    ['api-key', 'Bearer mint_testkey0123456789', /starts with "Bearer": drop it/],
    ['api-key', 'Authorization: Bearer mint_x0123456789', /"Authorization: Bearer": drop it/],
    ['show-bundle-url', 'yes', /true or false/],
    ['timeout', '10 minutes', /duration/],
    ['timeout', '0s', /duration/],
    ['timeout', '-5', /duration/],
    ['timeout', '100h', /duration/],
    ['poll-interval', '100ms', /0.5s/],
    ['poll-interval', 'fast', /"auto" or a duration/],
    ['download', 'yes', /true or false/],
    ['extract', '1', /true or false/],
    ['mask-bundle-url', 'on', /true or false/],
    ['wait', 'maybe', /true or false/],
    ['command', 'deploy', /export, agent/],
    ['deployment-type', 'on-prem', /cloud, client-hosted, air-gapped/],
    ['path', '.', /never replaced: it is the workspace itself/],
    ['path', '..', /never replaced: it contains the workspace/],
    ['path', '/', /never replaced: it is the root of a filesystem/],
    ['path', '/etc', /never replaced: it is inside \/etc, a system directory/],
    ['path', '.git/hooks', /never replaced: it is inside the checkout's \.git directory/],
    ['path', '~alice/site', /~ followed by a user name/],
    ['path', '~/site', /the home directory is unknown here/],
    ['helm-values-file', '/etc/values.yaml', /inside \/etc, a system directory/],
    ['artifact-name', 'site/v1', /must not contain/],
    ['export-paths', '/guides/getting started', /whitespace/],
    ['max-extract-size', 'lots', /size/],
    ['max-extract-files', '0', /whole number/],
    ['allowed-hosts', 'https://cdn.example.com/', /hostnames/],
    ['allowed-hosts', '[fd00::zz]', /or IPv6 addresses such as \[fd00::5\]/],
    ['release-version', 'a\u0007b', /one line/],
  ])('refuses %s = %j, naming the input', (input, value, message) => {
    const problems = problemsOf({ [input]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.input).toBe(input);
    expect(problems[0]?.message).toMatch(message);
  });

  it('requires api-key and never echoes a malformed one', () => {
    expect(problemsOf({ 'api-key': '' })[0]).toMatchObject({
      input: 'api-key',
      message:
        'is required: the admin API key (mint_…), given as `api-key: ${{ secrets.ADMIN_API_KEY }}`',
    });
    const problems = problemsOf({ 'api-key': 'not a key with spaces' });
    expect(problems[0]?.input).toBe('api-key');
    expect(JSON.stringify(problems)).not.toContain('not a key with spaces');
    for (const key of ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'Bearer mint_testkey0123456789']) {
      expect(JSON.stringify(problemsOf({ 'api-key': key }))).not.toContain(key.slice(-10));
    }
  });

  it.each([
    ['base-url', 'https://admin:hunter2pass@api.example.com'],
    ['base-url', 'http://admin:hunter2pass@api.example.com'],
    ['base-url', 'admin:hunter2pass@api.example.com'],
    ['compare-with', 'https://deploy:hunter2pass@docs.example.com/'],
  ])('refuses %s = %j without echoing the password in it', (input, value) => {
    const problems = problemsOf({ [input]: value });
    expect(problems[0]?.input).toBe(input);
    expect(JSON.stringify(problems)).not.toContain('hunter2pass');
    expect(problems[0]?.message).toContain('***@');
  });

  it('requires domain for export', () => {
    expect(problemsOf({ domain: '' })).toEqual([
      { input: 'domain', message: expect.stringMatching(/required/) },
    ]);
  });

  it('refuses the job id of one command given to the other, which it would ignore', () => {
    // An agent job's id in `job-id` would start a new agent job: a second pull request.
    expect(
      problemsOf({ command: 'agent', 'project-id': 'p', 'job-id': 'job_1', prompt: 'Fix it' }),
    ).toEqual([{ input: 'job-id', message: expect.stringMatching(/set `agent-job-id`/) }]);
    expect(problemsOf({ 'agent-job-id': 'job_1' })).toEqual([
      { input: 'agent-job-id', message: expect.stringMatching(/set `command: agent`/) },
    ]);
    // Empty, as a reusable workflow passes an input it was not given, it is not given.
    expect(problemsOf({ command: 'agent', 'project-id': 'p', 'job-id': '', prompt: 'x' })).toEqual(
      [],
    );
  });

  it('parses an agent config and requires project-id and prompt', () => {
    const config = parse({
      command: 'agent',
      'project-id': 'proj_1',
      prompt: '  Update the\nchangelog  ',
      wait: 'false',
    });
    expect(config).toMatchObject({
      command: 'agent',
      projectId: 'proj_1',
      prompt: 'Update the\nchangelog',
      wait: false,
    });
    const problems = problemsOf({ command: 'agent' });
    expect(problems.map((p) => p.input).sort()).toEqual(['project-id', 'prompt']);
  });

  it.each([
    ['project-id', 'org/project', /no slashes/],
    ['project-id', 'my project', /whitespace/],
    ['project-id', '..', /not "\." or "\.\."/],
    ['project-id', '.', /not "\." or "\.\."/],
    ['project-id', 'a\u0001b', /control characters/],
    ['prompt', '   \n  ', /at least 1 character/],
    ['prompt', 'x'.repeat(100_001), /limit is 100000/],
  ])('refuses agent input %s', (input, value, message) => {
    const problems = problemsOf({
      command: 'agent',
      'project-id': 'p',
      prompt: 'go',
      [input]: value,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ input, message: expect.stringMatching(message) });
  });

  it('reports every bad input at once', () => {
    const problems = problemsOf({ domain: 'https://x', timeout: 'soon', download: 'nope' });
    expect(problems.map((p) => p.input)).toEqual(['domain', 'download', 'timeout']);
  });

  it('uses the workflow default for release-version unless given', () => {
    const withDefault = parseConfig(base, { workspace, defaultReleaseVersion: 'abc123' });
    expect(withDefault).toMatchObject({ releaseVersion: 'abc123' });
    expect(
      parseConfig(
        { ...base, 'release-version': 'v2' },
        { workspace, defaultReleaseVersion: 'abc123' },
      ),
    ).toMatchObject({
      releaseVersion: 'v2',
    });
  });
});
