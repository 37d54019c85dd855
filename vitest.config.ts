import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Native addons (libsodium, blst, LMDB) are safest in separate processes.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The conformance tally first, so that the failures and the summary end the output.
    reporters: ['./test/support/conformance-tally-reporter.ts', 'default'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
