import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Native addons (libsodium, blst, LMDB) are safest in separate processes.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
