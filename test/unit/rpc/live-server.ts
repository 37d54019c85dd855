/**
 * Starts a real RpcServer on 127.0.0.1 with a free port (port 0, read back from the listen
 * socket) and the test methods; shared by the RPC e2e tests in test/e2e/rpc-*.test.ts.
 */
import { silentLogger } from '../../../src/logger.js';
import { RpcServer } from '../../../src/rpc/server.js';
import type { RpcServerOptions } from '../../../src/rpc/server-options.js';
import { buildTestRegistry } from './test-methods.js';

export const LOOPBACK = '127.0.0.1';

export async function startTestServer(overrides: Partial<RpcServerOptions> = {}): Promise<RpcServer> {
  const server = new RpcServer(
    { modes: ['http', 'ws'], host: LOOPBACK, port: 0, allowedMethods: [], ...overrides },
    buildTestRegistry(),
    silentLogger,
  );
  await server.start();
  return server;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 10 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}
