import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-world layer has a run of its own: vitest.world.config.ts.
    exclude: [
      ...configDefaults.exclude,
      'test/peers/**',
      'test/sites/**',
      'test/conformance/**',
      'test/fuzz/**',
    ],
    globalSetup: ['./test/global-setup.ts'],
    reporters: [
      'default',
      './test/reliability/table-reporter.ts',
      './test/support/slowest-files.ts',
      // In CI a skipped test fails the run: .ci/run installs everything the tests need.
      './test/support/skips-fail-in-ci.ts',
    ],
    // Test files of a worker share its module cache: importing the sources, undici and the
    // emulator once per worker instead of once per file halves a run. A test that changes
    // process-wide state restores it (vi.stubEnv, then vi.unstubAllEnvs).
    isolate: false,
    // More workers than cores: many files mostly wait (on the processes the smoke tests
    // start, on real socket timeouts), and vitest's default on 2 cores is one worker.
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
