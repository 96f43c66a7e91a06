import type { Readiness } from '../../src/airgap/findings.js';

const none = { count: 0 };

/** A readiness check's result that found nothing, with what a test sets over it. */
export function readinessOf(overrides: Partial<Readiness> = {}): Readiness {
  return {
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
  };
}
