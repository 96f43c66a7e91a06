import { defineConfig } from 'vitest/config';

/**
 * The real-world layer: tests against tools and servers nobody here wrote, each started on
 * loopback by the test. Real peers (an S3 server, nginx, squid, Prism, a faked clock),
 * sites built by real generators loaded in Chromium, archives made by real archivers and
 * extracted by the reference tools, and a bounded fuzz run. Slower to start than the
 * emulator, so a run of their own (`npm run test:world`), which `.ci/run` runs after
 * `npm test`.
 */
export default defineConfig({
  test: {
    include: [
      'test/peers/**/*.test.ts',
      'test/sites/**/*.test.ts',
      'test/conformance/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
    ],
    globalSetup: ['./test/global-setup.ts'],
    reporters: [
      'default',
      './test/support/slowest-files.ts',
      // In CI a skipped test fails the run: .ci/run installs everything the tests need.
      './test/support/skips-fail-in-ci.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
