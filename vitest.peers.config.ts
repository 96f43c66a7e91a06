import { defineConfig } from 'vitest/config';

/**
 * Tests against real peers nobody here wrote (an S3 server, nginx, squid, Prism, a faked
 * clock): slower to start than the emulator, so a run of their own (`npm run test:peers`).
 */
export default defineConfig({
  test: {
    include: ['test/peers/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
