/**
 * The relayer's connection to the receiving chain: backoff between failed attempts, one log line
 * per change of state (down, back up), a lost connection retried, and a chain that is down never
 * holding up the caller longer than one attempt.
 */
import { describe, expect, it } from 'vitest';
import {
  FIRST_RETRY_MS,
  MAX_RETRY_MS,
  ReceivingChain,
  ReceivingChainRpcError,
  type RpcConnection,
} from '../../../src/plugins/chain-connector/receiving-chain.js';
import { type LogLine, recordingLogger } from '../../support/recording-logger.js';

/** A connection answering from `answer`; `lose()` simulates the peer going away. */
function fakeConnection(answer: (method: string) => unknown) {
  let onClose: (() => void) | undefined;
  let closed = false;
  const connection: RpcConnection = {
    invoke: async <T>(method: string) => {
      if (closed) throw new Error('socket closed');
      return answer(method) as T;
    },
    close: () => {
      closed = true;
    },
    onClose: (listener) => {
      onClose = listener;
    },
  };
  return {
    connection,
    lose: () => {
      closed = true;
      onClose?.();
    },
  };
}

describe('ReceivingChain', () => {
  it('backs off exponentially while the chain is down, logging once, and logs once when it is back', async () => {
    let now = 1_000_000;
    let attempts = 0;
    let up = false;
    const lines: LogLine[] = [];
    const fake = fakeConnection(() => ({ chainID: '04000000' }));
    const chain = new ReceivingChain(
      async () => {
        attempts += 1;
        if (!up) throw new Error('ECONNREFUSED');
        return fake.connection;
      },
      'ws://127.0.0.1:1/rpc-ws',
      recordingLogger(lines),
      () => now,
    );

    expect(await chain.connection()).toBeUndefined();
    expect(attempts).toBe(1);
    // Within the delay: no new attempt, an immediate answer.
    expect(await chain.connection()).toBeUndefined();
    await expect(chain.invoke('system_getNodeInfo')).rejects.toThrow('not reachable');
    expect(attempts).toBe(1);
    expect(chain.retryInMs).toBe(FIRST_RETRY_MS);

    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      now += chain.retryInMs;
      await chain.connection();
      delays.push(chain.retryInMs);
    }
    expect(delays).toEqual([2, 4, 8, 16, 32, 60, 60, 60].map((seconds) => seconds * 1000));
    expect(Math.max(...delays)).toBe(MAX_RETRY_MS);
    expect(attempts).toBe(9);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);

    up = true;
    now += chain.retryInMs;
    expect(await chain.connection()).toBe(fake.connection);
    expect(chain.connected).toBe(true);
    expect(await chain.invoke('system_getNodeInfo')).toEqual({ chainID: '04000000' });
    expect(lines.filter((line) => line.level === 'info')).toHaveLength(1);
    expect(attempts).toBe(10);

    // Lost: down again (one more warning), retried after the first delay again.
    up = false;
    fake.lose();
    expect(chain.connected).toBe(false);
    expect(chain.retryInMs).toBe(FIRST_RETRY_MS);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  });

  it('keeps the connection on an RPC error and drops it on a transport failure', async () => {
    let now = 0;
    const fake = fakeConnection((method) => {
      if (method === 'interoperability_getChainAccount') throw new ReceivingChainRpcError(method, -32001, 'not found');
      if (method === 'broken') throw new Error('write EPIPE');
      return {};
    });
    const chain = new ReceivingChain(
      async () => fake.connection,
      'ipc',
      recordingLogger([]),
      () => now,
    );
    await expect(chain.invoke('interoperability_getChainAccount')).rejects.toBeInstanceOf(ReceivingChainRpcError);
    expect(chain.connected).toBe(true);
    await expect(chain.invoke('broken')).rejects.toThrow('EPIPE');
    expect(chain.connected).toBe(false);
    now += 10;
    expect(chain.retryInMs).toBe(FIRST_RETRY_MS - 10);
  });

  it('shares one attempt between concurrent callers', async () => {
    let attempts = 0;
    let release: (() => void) | undefined;
    const fake = fakeConnection(() => ({}));
    const chain = new ReceivingChain(
      () =>
        new Promise<RpcConnection>((resolve) => {
          attempts += 1;
          release = () => resolve(fake.connection);
        }),
      'ws',
      recordingLogger([]),
    );
    const first = chain.connection();
    const second = chain.connection();
    release?.();
    expect(await first).toBe(fake.connection);
    expect(await second).toBe(fake.connection);
    expect(attempts).toBe(1);
  });
});
