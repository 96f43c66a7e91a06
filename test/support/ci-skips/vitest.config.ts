import { defineConfig } from 'vitest/config';

/** Runs the fixture of test/unit/skips-fail-in-ci.test.ts with the suites' skip guard. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['skips.fixture.ts'],
    reporters: ['default', '../skips-fail-in-ci.ts'],
  },
});
