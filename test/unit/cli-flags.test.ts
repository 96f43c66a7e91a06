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

  it('lets the command line replace a list from the environment, not add to it', () => {
    const config = configOf(['export', '--domain', 'docs.example.com', '--export-paths', '/a'], {
      STATIC_EXPORT_EXPORT_PATHS: '/b',
    });
    expect(config).toMatchObject({ exportPaths: ['/a'] });
  });
});
