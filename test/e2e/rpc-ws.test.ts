/**
 * The WebSocket transport of a real RpcServer on loopback, with the `ws` client: requests,
 * batches, subscriptions with exact and prefix topics, event delivery, origin checks, message
 * size and per-socket backpressure.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RpcServer } from '../../src/rpc/server.js';
import { LOOPBACK, sleep, startTestServer, waitFor } from '../unit/rpc/live-server.js';
import { slowCalls } from '../unit/rpc/test-methods.js';

const MAX_MESSAGE = 64 * 1024;

/** A `ws` client that queues every text message it receives. */
class Client {
  readonly socket: WebSocket;
  readonly received: string[] = [];
  closeCode: number | undefined;
  closeReason = '';
  private readonly opened: Promise<void>;
  private readonly closedPromise: Promise<void>;
  private waiter: (() => void) | undefined;
  private requestId = 1000;
  private cursor = 0;

  constructor(port: number, headers: Record<string, string> = {}) {
    this.socket = new WebSocket(`ws://${LOOPBACK}:${port}/rpc-ws`, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
      this.socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    });
    this.closedPromise = new Promise((resolve) => {
      this.socket.on('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        resolve();
      });
    });
    this.socket.on('message', (data) => {
      this.received.push(String(data));
      this.waiter?.();
    });
  }

  static async open(port: number, headers?: Record<string, string>): Promise<Client> {
    const client = new Client(port, headers);
    await client.opened;
    return client;
  }

  /** Waits (at most 5 s) until more than `index` messages have arrived. */
  private async waitForIndex(index: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (this.received.length <= index && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 100);
      });
    }
    this.waiter = undefined;
    expect(this.received.length).toBeGreaterThan(index);
  }

  /** Forgets every message received so far. */
  clear(): void {
    this.received.length = 0;
    this.cursor = 0;
  }

  /** Sends `text` and returns the next message not yet consumed (its answer when no event interferes). */
  async ask(text: string): Promise<string> {
    this.socket.send(text);
    await this.waitForIndex(this.cursor);
    const message = this.received[this.cursor] as string;
    this.cursor += 1;
    return message;
  }

  /**
   * The messages not yet consumed, up to the answer of a fresh echo request (dropped). Server
   * sends are ordered per socket, so an event published before the echo request was sent has
   * arrived by then: this proves that nothing else was delivered.
   */
  async drain(): Promise<string[]> {
    const id = (this.requestId += 1);
    const expected = `{"jsonrpc":"2.0","id":${id},"result":{}}`;
    this.socket.send(`{"jsonrpc":"2.0","id":${id},"method":"test_echo"}`);
    await waitFor(() => this.received.indexOf(expected, this.cursor) >= 0, 5_000);
    const index = this.received.indexOf(expected, this.cursor);
    expect(index).toBeGreaterThanOrEqual(0);
    const messages = this.received.slice(this.cursor, index);
    this.cursor = index + 1;
    return messages;
  }

  async closed(timeoutMs: number): Promise<boolean> {
    return Promise.race([this.closedPromise.then(() => true), sleep(timeoutMs).then(() => false)]);
  }

  close(): void {
    this.socket.terminate();
  }
}

const event = (name: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', method: name, params });

let server: RpcServer;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: MAX_MESSAGE, maxBatchSize: 5 });
});

afterAll(async () => {
  await server.stop();
});

describe('RPC over WebSocket: requests', () => {
  it('answers requests, batches and envelope errors in text frames', async () => {
    const client = await Client.open(server.port);
    expect(await client.ask('{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":2,"b":3}}')).toBe(
      '{"jsonrpc":"2.0","id":1,"result":5}',
    );
    expect(
      await client.ask(
        '[{"jsonrpc":"2.0","id":"a","method":"test_echo"},{"jsonrpc":"2.0","method":"test_echo"},{"jsonrpc":"2.0","id":"b","method":"test_secret"}]',
      ),
    ).toBe(
      '[{"jsonrpc":"2.0","id":"a","result":{}},{"jsonrpc":"2.0","id":"b","error":{"code":-32002,"message":"Requested method or namespace is disabled in node config."}}]',
    );
    expect(JSON.parse(await client.ask('not json'))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the request is not valid JSON.' },
    });
    expect(JSON.parse(await client.ask('[]')).error.code).toBe(-32600);
    expect(JSON.parse(await client.ask(JSON.stringify(Array(6).fill({ jsonrpc: '2.0', id: 1, method: 'test_echo' })))).error.code).toBe(
      -32600,
    );
    expect(JSON.parse(await client.ask('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":[]}')).error.code).toBe(-32600);
    expect(JSON.parse(await client.ask('{"jsonrpc":"2.0","id":1,"method":"test_missing"}')).error.code).toBe(-32001);
    // Binary frames are read as UTF-8 text too.
    client.socket.send(Buffer.from('{"jsonrpc":"2.0","id":2,"method":"test_echo"}'), { binary: true });
    expect(await client.drain()).toEqual(['{"jsonrpc":"2.0","id":2,"result":{}}']);
    // Notifications get nothing.
    client.socket.send('{"jsonrpc":"2.0","method":"test_echo"}');
    client.socket.send('[{"jsonrpc":"2.0","method":"test_crash"}]');
    expect(await client.drain()).toEqual([]);
    client.close();
  });

  it('closes a socket that sends a message above the size limit (1009) and keeps serving others', async () => {
    const client = await Client.open(server.port);
    client.socket.send(`{"jsonrpc":"2.0","id":1,"method":"test_echo","params":{"s":"${'x'.repeat(MAX_MESSAGE)}"}}`);
    expect(await client.closed(5_000)).toBe(true);
    // uWS drops such a connection at once, without a close frame (1006 on the client side).
    expect([1006, 1009]).toContain(client.closeCode);
    const other = await Client.open(server.port);
    expect(await other.ask('{"jsonrpc":"2.0","id":1,"method":"test_echo"}')).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    other.close();
  });
});

describe('RPC over WebSocket: subscriptions', () => {
  it('acknowledges subscribe and unsubscribe with a result', async () => {
    const client = await Client.open(server.port);
    expect(await client.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain_newBlock","chain","chain"]}}')).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"subscribed":["chain_newBlock","chain"]}}',
    );
    expect(await client.ask('{"jsonrpc":"2.0","id":2,"method":"unsubscribe","params":{"topics":["chain","app_ready"]}}')).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"unsubscribed":["chain"]}}',
    );
    client.close();
  });

  it.each([
    ['no params', '{"jsonrpc":"2.0","id":1,"method":"subscribe"}', 'params.topics: must be a non-empty array of event names or prefixes.'],
    [
      'no topics',
      '{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{}}',
      'params.topics: must be a non-empty array of event names or prefixes.',
    ],
    [
      'empty topics',
      '{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":[]}}',
      'params.topics: must be a non-empty array of event names or prefixes.',
    ],
    ['a number topic', '{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["a",7]}}', 'params.topics[1]: must be string.'],
    [
      'a string for topics',
      '{"jsonrpc":"2.0","id":1,"method":"unsubscribe","params":{"topics":"chain"}}',
      'params.topics: must be a non-empty array of event names or prefixes.',
    ],
  ])('answers -32602 to a malformed subscription (%s)', async (_name, request, message) => {
    const client = await Client.open(server.port);
    expect(JSON.parse(await client.ask(request))).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message } });
    client.close();
  });

  it('delivers events only to sockets whose topics match, exactly or as Lisk-style substrings', async () => {
    const exact = await Client.open(server.port);
    const prefix = await Client.open(server.port);
    const block = await Client.open(server.port);
    const everything = await Client.open(server.port);
    const never = await Client.open(server.port);
    const viaNotification = await Client.open(server.port);
    await exact.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain_newBlock"]}}');
    await prefix.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain"]}}');
    await block.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["Block"]}}');
    await everything.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":[""]}}');
    // A subscribe sent as a notification (no id) works and is not answered.
    viaNotification.socket.send('{"jsonrpc":"2.0","method":"subscribe","params":{"topics":["token_transfer"]}}');
    expect(await viaNotification.drain()).toEqual([]);

    server.publish('chain_newBlock', { height: 7 });
    server.publish('chain_deleteBlock', { height: 6 });
    server.publish('network_newBlock', { peer: 'p' });
    server.publish('token_transfer', { amount: '1' });
    server.publish('app_ready', undefined);

    expect(await exact.drain()).toEqual([event('chain_newBlock', { height: 7 })]);
    expect(await prefix.drain()).toEqual([event('chain_newBlock', { height: 7 }), event('chain_deleteBlock', { height: 6 })]);
    expect(await block.drain()).toEqual([
      event('chain_newBlock', { height: 7 }),
      event('chain_deleteBlock', { height: 6 }),
      event('network_newBlock', { peer: 'p' }),
    ]);
    expect(await everything.drain()).toEqual([
      event('chain_newBlock', { height: 7 }),
      event('chain_deleteBlock', { height: 6 }),
      event('network_newBlock', { peer: 'p' }),
      event('token_transfer', { amount: '1' }),
      '{"jsonrpc":"2.0","method":"app_ready","params":{}}',
    ]);
    expect(await never.drain()).toEqual([]);
    expect(await viaNotification.drain()).toEqual([event('token_transfer', { amount: '1' })]);

    // After unsubscribe, nothing more arrives.
    expect(await prefix.ask('{"jsonrpc":"2.0","id":2,"method":"unsubscribe","params":{"topics":["chain"]}}')).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"unsubscribed":["chain"]}}',
    );
    server.publish('chain_newBlock', { height: 8 });
    expect(await prefix.drain()).toEqual([]);
    expect(await exact.drain()).toEqual([event('chain_newBlock', { height: 8 })]);
    for (const client of [exact, prefix, block, everything, never, viaNotification]) client.close();
  });

  it('drops the subscriptions of a closed socket', async () => {
    // Sockets of earlier tests close asynchronously.
    expect(await waitFor(() => server.webSocketCount === 0, 5_000)).toBe(true);
    const baseline = server.webSocketCount;
    const client = await Client.open(server.port);
    await client.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain"]}}');
    expect(server.webSocketCount).toBe(baseline + 1);
    client.close();
    expect(await waitFor(() => server.webSocketCount === baseline, 5_000)).toBe(true);
    server.publish('chain_newBlock', { height: 1 });
  });
});

describe('RPC over WebSocket: origin check', () => {
  it('refuses a browser origin that accessControlAllowOrigin does not list, and accepts listed and absent ones', async () => {
    const strict = await startTestServer({ accessControlAllowOrigin: 'https://a.example, https://b.example' });
    try {
      await expect(Client.open(strict.port, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
      await expect(Client.open(strict.port, { origin: 'https://a.exampl' })).rejects.toThrow('HTTP 403');
      const listed = await Client.open(strict.port, { origin: 'https://b.example' });
      const noOrigin = await Client.open(strict.port);
      expect(await listed.ask('{"jsonrpc":"2.0","id":1,"method":"test_echo"}')).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
      listed.close();
      noOrigin.close();
    } finally {
      await strict.stop();
    }
  });
});

describe('RPC over WebSocket: backpressure and shutdown', () => {
  it('cuts off a subscriber that does not read (1008) while a reading subscriber gets every event', async () => {
    const limited = await startTestServer({ wsMaxBufferedBytes: 256 * 1024 });
    try {
      const slow = await Client.open(limited.port);
      const fast = await Client.open(limited.port);
      await slow.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain"]}}');
      await fast.ask('{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["chain_newBlock"]}}');
      slow.clear();
      fast.clear();
      slow.socket.pause();

      const payload = 'x'.repeat(64 * 1024);
      const maxEvents = 2_000; // at most 128 MiB offered in total; the kernel and the limit hold far less
      const deadline = Date.now() + 20_000;
      let published = 0;
      while (limited.webSocketCount === 2 && published < maxEvents && Date.now() < deadline) {
        limited.publish('chain_newBlock', { n: published, payload });
        published += 1;
        // Let the reading client read, so only the paused one builds a backlog.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(limited.webSocketCount).toBe(1);
      expect(published).toBeLessThan(maxEvents);

      slow.socket.resume();
      expect(await slow.closed(10_000)).toBe(true);
      expect(slow.closeCode).toBe(1008);
      expect(slow.closeReason).toBe('Send buffer limit exceeded: the client does not read its messages.');
      // It got a prefix of the events, never all of them.
      expect(slow.received.length).toBeLessThan(published);
      slow.received.forEach((message, n) => expect(JSON.parse(message).params.n).toBe(n));

      expect(await waitFor(() => fast.received.length === published, 10_000)).toBe(true);
      fast.received.forEach((message, n) => expect(JSON.parse(message).params.n).toBe(n));
      fast.clear();
      expect(await fast.ask('{"jsonrpc":"2.0","id":3,"method":"test_echo"}')).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
      fast.close();
    } finally {
      await limited.stop();
    }
  });

  it('cuts off a client that sends requests but does not read the answers', async () => {
    const limited = await startTestServer({ wsMaxBufferedBytes: 256 * 1024 });
    try {
      const client = await Client.open(limited.port);
      client.socket.pause();
      const deadline = Date.now() + 20_000;
      let sent = 0;
      while (limited.webSocketCount === 1 && sent < 2_000 && Date.now() < deadline) {
        client.socket.send(`{"jsonrpc":"2.0","id":${sent},"method":"test_big","params":{"size":65536}}`);
        sent += 1;
        await sleep(1);
      }
      expect(limited.webSocketCount).toBe(0);
      client.socket.resume();
      expect(await client.closed(10_000)).toBe(true);
      expect(client.closeCode).toBe(1008);
    } finally {
      await limited.stop();
    }
  });

  it('closes every socket with 1001 on stop() and does not write answers of requests still running', async () => {
    const temporary = await startTestServer();
    const client = await Client.open(temporary.port);
    const started = once(slowCalls, 'start');
    const finished = once(slowCalls, 'finish');
    client.socket.send('{"jsonrpc":"2.0","id":1,"method":"test_slow","params":{"ms":150}}');
    await started;
    // Stop from a later turn of the event loop, as a signal handler would: 'start' is emitted
    // inside uWS's message callback, where the close frame would stay corked and never go out.
    await new Promise((resolve) => setImmediate(resolve));
    await temporary.stop();
    expect(await client.closed(5_000)).toBe(true);
    expect(client.closeCode).toBe(1001);
    await finished;
    expect(client.received).toEqual([]);
  });
});
