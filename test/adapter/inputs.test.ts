import { describe, expect, it } from 'vitest';
import { type ExportConfig, parseConfig } from '../../src/config.js';
import { ACTION_DEFAULTS } from '../support/in-process.js';

/** Inputs as the runner hands them over: action.yml's defaults under what the workflow set. */
function exportConfig(inputs: Record<string, string>): ExportConfig {
  const config = parseConfig(
    {
      ...ACTION_DEFAULTS,
      'api-key': 'mint_abcdefghijklmnop',
      domain: 'docs.example.com',
      ...inputs,
    },
    { workspace: '/work/space' },
  );
  if (config.command !== 'export') throw new Error('not an export config');
  return config;
}

describe('inputs as the runner gives them', () => {
  it.each([
    ['True', 'true'],
    ['TRUE', 'true'],
    ['False', 'false'],
    ['FALSE', 'false'],
  ] as const)(
    'browser-check takes %s as the boolean inputs do (an expression or an env value)',
    (given, read) => {
      expect(exportConfig({ 'browser-check': given }).browserCheck).toBe(read);
      expect(exportConfig({ download: given }).download).toBe(read === 'true');
    },
  );

  it.each([
    ['command', 'Export', { command: 'export' }],
    ['deployment-type', 'AIR-GAPPED', { deploymentType: 'air-gapped' }],
    ['deployment-type', 'Client-Hosted', { deploymentType: 'client-hosted' }],
    ['poll-interval', 'Auto', { pollInterval: 'auto' }],
    ['broken-links', 'FAIL', { brokenLinks: 'fail' }],
    ['browser-check', 'AUTO', { browserCheck: 'auto' }],
  ] as const)('reads %s: %s as its lower-case word, where it was refused', (name, given, read) => {
    expect(exportConfig({ [name]: given })).toMatchObject(read);
  });

  it('still refuses a word that is none of them, listing the accepted ones', () => {
    expect(() => exportConfig({ 'deployment-type': 'AirGapped' })).toThrow(
      'must be one of cloud, client-hosted, air-gapped, got "AirGapped"',
    );
  });
});
