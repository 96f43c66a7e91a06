import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli-flags.js';
import { type Config, parseConfig } from '../../src/config.js';

const KEY = 'mint_testkey0123456789';

/** The Config a command line turns into, as runCli builds it. */
function configOf(argv: string[], env: NodeJS.ProcessEnv = {}): Config {
  const request = parseCommandLine(argv, { ADMIN_API_KEY: KEY, ...env });
  if (request.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(request)}`);
  return parseConfig({ command: request.command, ...request.inputs }, { workspace: '/work/space' });
}

describe('parseCommandLine', () => {
  it('keeps every value of a list flag given more than once', () => {
    const config = configOf([
      'export',
      '--domain',
      'docs.example.com',
      '--export-paths',
      '/guides',
      '--export-paths=/reference,/api',
      '--allowed-hosts',
      'cdn.example.com',
      '--allowed-hosts',
      '*.example.org',
    ]);
    expect(config).toMatchObject({
      exportPaths: ['/guides', '/reference', '/api'],
      allowedHosts: ['cdn.example.com', '*.example.org'],
    });
  });

  it('reads the words of --deployment-type and the like in any case, as the action does', () => {
    const flags = configOf([
      'export',
      '--domain',
      'docs.example.com',
      '--deployment-type',
      'AIR-GAPPED',
      '--poll-interval',
      'Auto',
      '--broken-links=Off',
    ]);
    expect(flags).toMatchObject({
      deploymentType: 'air-gapped',
      pollInterval: 'auto',
      brokenLinks: 'off',
    });
    const environment = configOf(['export', '--domain', 'docs.example.com'], {
      STATIC_EXPORT_DEPLOYMENT_TYPE: 'Client-Hosted',
      STATIC_EXPORT_BROWSER_CHECK: 'AUTO',
    });
    expect(environment).toMatchObject({ deploymentType: 'client-hosted', browserCheck: 'auto' });
  });

  it('lets the command line replace a list from the environment, not add to it', () => {
    const config = configOf(['export', '--domain', 'docs.example.com', '--export-paths', '/a'], {
      STATIC_EXPORT_EXPORT_PATHS: '/b',
    });
    expect(config).toMatchObject({ exportPaths: ['/a'] });
  });
});

/** The message of the usage error a command line is refused with. */
function refusal(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const request = parseCommandLine(argv, { ADMIN_API_KEY: KEY, ...env });
  if (request.kind !== 'usage-error') throw new Error(`not refused: ${JSON.stringify(request)}`);
  return request.message;
}

describe('a flag that takes one value, given twice', () => {
  it('is refused with both values, where the last one used to win silently', () => {
    expect(refusal(['export', '--domain', 'docs.example.com', '--path', 'a', '--path=b'])).toBe(
      '--path is given twice, as "a" and as "b": give it once',
    );
    expect(
      refusal(['agent', '--project-id', 'p', '--prompt', 'Fix the links', '--prompt', 'Fix it']),
    ).toBe('--prompt is given twice, as "Fix the links" and as "Fix it": give it once');
  });

  it('shows a long or multi-line value cut short and escaped, on one line', () => {
    const message = refusal([
      'agent',
      '--project-id',
      'p',
      '--prompt',
      `first line\n${'x'.repeat(200)}`,
      '--prompt',
      'b',
    ]);
    expect(message).toMatch(/^--prompt is given twice, as "first line\\nx+…" and as "b"/);
    expect(message.length).toBeLessThan(120);
  });

  it('never shows the keys of --api-key given twice', () => {
    const message = refusal([
      'export',
      '--domain',
      'docs.example.com',
      '--api-key',
      'mint_firstkey000000001',
      '--api-key',
      'mint_otherkey000000002',
    ]);
    expect(message).toBe('--api-key is given twice, with two different keys: give it once');
  });

  it('is taken once when the values are the same', () => {
    expect(
      configOf(['export', '--domain', 'docs.example.com', '--domain', 'docs.example.com']),
    ).toMatchObject({ domain: 'docs.example.com' });
  });

  it('may override its STATIC_EXPORT_<FLAG> variable, and a switch may be turned back', () => {
    const request = parseCommandLine(
      ['export', '--domain', 'docs.example.com', '--download', '--no-download'],
      { ADMIN_API_KEY: KEY, STATIC_EXPORT_DOMAIN: 'other.example.com' },
    );
    expect(request).toMatchObject({
      kind: 'run',
      inputs: { domain: 'docs.example.com', download: 'false' },
    });
  });
});

describe('a value that starts with a dash, as the next word', () => {
  it('is refused with the = form that gives it, where an unknown name was taken silently', () => {
    expect(refusal(['agent', '--project-id', 'p', '--prompt', '--fix-typos'])).toBe(
      '--prompt got "--fix-typos", which reads as a flag: to give it as the value, write --prompt=--fix-typos',
    );
    expect(refusal(['export', '--domain', 'docs.example.com', '--path', '-x'])).toBe(
      '--path got "-x", which reads as a flag: to give it as the value, write --path=-x',
    );
    // `--` would end the flags: as a value it is a slip too.
    expect(refusal(['agent', '--project-id', 'p', '--prompt', '--'])).toMatch(
      /^--prompt got "--", which reads as a flag: to give it as the value, write --prompt=--$/,
    );
  });

  it('says, when it is a flag of the command, that the value is missing and how to give it', () => {
    expect(refusal(['export', '--domain', 'docs.example.com', '--path', '--json'])).toBe(
      '--path needs a value: --path <dir> (the next word, --json, is a flag; to give it as the value, write --path=--json)',
    );
  });

  it('is taken joined by =, or when it is a sentence, or the - that reads stdin', () => {
    const prompt = (value: string[]) =>
      parseCommandLine(['agent', '--project-id', 'p', ...value], { ADMIN_API_KEY: KEY });
    expect(prompt(['--prompt=--fix-typos'])).toMatchObject({ inputs: { prompt: '--fix-typos' } });
    expect(prompt(['--prompt', '- fix the typos'])).toMatchObject({
      inputs: { prompt: '- fix the typos' },
    });
    expect(prompt(['--prompt', '-'])).toMatchObject({ inputs: { prompt: '-' } });
  });

  it('never shows what was given for --api-key', () => {
    const message = refusal(['export', '--domain', 'docs.example.com', '--api-key', '-mint_x0']);
    expect(message).toBe(
      '--api-key got a value that reads as a flag: to give it as the key, write --api-key=<key>',
    );
  });
});

describe('--quiet with --verbose', () => {
  const request = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
    parseCommandLine(['export', '--domain', 'docs.example.com', ...argv], {
      ADMIN_API_KEY: KEY,
      ...env,
    });

  it('is refused when both come the same way, where debug lines were printed under --quiet', () => {
    expect(request(['--quiet', '--verbose'])).toMatchObject({
      kind: 'usage-error',
      message: '--quiet and --verbose ask for fewer lines and for more: give one of them',
    });
    expect(request([], { STATIC_EXPORT_QUIET: 'true', STATIC_EXPORT_VERBOSE: '1' })).toMatchObject({
      kind: 'usage-error',
      message:
        'STATIC_EXPORT_QUIET and STATIC_EXPORT_VERBOSE ask for fewer lines and for more: give one of them',
    });
  });

  it('lets the flag win over the other one set in the environment', () => {
    expect(request(['--verbose'], { STATIC_EXPORT_QUIET: 'true' })).toMatchObject({
      kind: 'run',
      quiet: false,
      verbose: true,
    });
    expect(request(['-q'], { STATIC_EXPORT_VERBOSE: 'true' })).toMatchObject({
      kind: 'run',
      quiet: true,
      verbose: false,
    });
    expect(request(['--quiet', '--no-verbose'])).toMatchObject({ quiet: true, verbose: false });
  });
});

describe('a usage error', () => {
  it('never shows the key, from the environment or from --api-key, where it quotes a word', () => {
    expect(refusal(['export', '--domain', 'x', '--download', KEY])).toBe(
      '--download takes true or false, got "***" (or write --download / --no-download)',
    );
    const typed = 'mint_typedkey000000001';
    expect(refusal(['export', '--api-key', typed, '--domain', 'x', typed], {})).toBe(
      'unexpected argument "***": values are given with a flag, e.g. --domain docs.example.com',
    );
    expect(
      refusal(['export', '--domain', 'x', '--path', 'site', '--path', KEY], {
        ADMIN_API_KEY: '',
        STATIC_EXPORT_API_KEY: KEY,
      }),
    ).toBe('--path is given twice, as "site" and as "***": give it once');
  });

  it('never shows a word shaped as a key, typed without --api-key and set nowhere else', () => {
    expect(refusal(['export', '--domain', 'x', 'mint_strayword00000001'], {})).toBe(
      'unexpected argument "***": values are given with a flag, e.g. --domain docs.example.com',
    );
    expect(refusal(['export', '--domain', 'x', '--download', 'mint_strayword00000001'], {})).toBe(
      '--download takes true or false, got "***" (or write --download / --no-download)',
    );
    // Other words are quoted as typed.
    expect(refusal(['export', '--domain', 'x', 'mint'], {})).toMatch(/^unexpected argument "mint"/);
  });
});

describe('STATIC_EXPORT_HELP and STATIC_EXPORT_VERSION', () => {
  it('are said to set nothing, where they were taken in silence', () => {
    const request = parseCommandLine(['export', '--domain', 'docs.example.com'], {
      ADMIN_API_KEY: KEY,
      STATIC_EXPORT_VERSION: '2.0',
      STATIC_EXPORT_HELP: 'true',
    });
    expect(request).toMatchObject({
      kind: 'run',
      unknownVariables: [
        'STATIC_EXPORT_HELP sets nothing and is ignored: --help is read from the command line only',
        'STATIC_EXPORT_VERSION sets nothing and is ignored: --version is read from the command line only (the docs version is STATIC_EXPORT_DOCS_VERSION)',
      ],
    });
    expect(request).not.toHaveProperty('inputs.docs-version');
  });
});

describe('--help with a mistake on the line', () => {
  const request = (argv: string[]) => parseCommandLine(argv, { ADMIN_API_KEY: KEY });

  it('shows the help, where the mistake was refused with a usage error', () => {
    expect(request(['export', '--domian', 'x', '--help'])).toEqual({
      kind: 'help',
      command: 'export',
    });
    expect(request(['agent', '-h', '--prompt'])).toEqual({ kind: 'help', command: 'agent' });
    expect(request(['export', '--domain', 'x', '--download', 'maybe', '-qh'])).toEqual({
      kind: 'help',
      command: 'export',
    });
    expect(request(['--domian', '--help'])).toEqual({ kind: 'help' });
    expect(request(['help', 'agent', 'export', '--help'])).toEqual({
      kind: 'help',
      command: 'agent',
    });
    // --help taken as the value of the flag before it, which lost its own.
    expect(request(['export', '--path', '--help'])).toEqual({ kind: 'help', command: 'export' });
    // A key typed in the wrong place: nothing of the line is printed.
    expect(request(['export', 'mint_strayword00000001', '--help'])).toEqual({
      kind: 'help',
      command: 'export',
    });
  });

  it('is not asked for after --, turned off, or given as a value with =', () => {
    expect(request(['export', '--domian', 'x', '--', '--help'])).toMatchObject({
      kind: 'usage-error',
      message: 'unknown flag --domian: did you mean --domain?',
    });
    expect(request(['export', '--domian', 'x', '--help', '--no-help'])).toMatchObject({
      kind: 'usage-error',
    });
    expect(request(['export', '--domian', 'x', '--help=false'])).toMatchObject({
      kind: 'usage-error',
    });
    expect(
      request(['agent', '--project-id', 'p', '--prompt=--help', '--agent-job-id', '']),
    ).toMatchObject({ kind: 'usage-error' });
  });

  it('names an unknown command, which has no help, without showing a key', () => {
    expect(request(['exprot', '--domian', 'x', '--help'])).toMatchObject({
      kind: 'usage-error',
      message: 'unknown command "exprot": did you mean export?',
    });
    expect(request(['mint_strayword00000001', '--domian', '-h'])).toMatchObject({
      kind: 'usage-error',
      message: 'unknown command "***"',
    });
  });
});
