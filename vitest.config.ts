import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-peer tests have a run of their own: vitest.peers.config.ts.
    exclude: [...configDefaults.exclude, 'test/peers/**'],
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/reliability/table-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
