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
});
