import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    reporters: ['default', './test/reliability/table-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
