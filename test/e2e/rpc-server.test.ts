/**
 * The HTTP transport of a real RpcServer on loopback: routes, statuses, CORS, body limits,
 * aborted requests, listening errors and modes.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/logger.js';
import { RpcServer } from '../../src/rpc/server.js';
import { LOOPBACK, startTestServer } from '../unit/rpc/live-server.js';
import { buildTestRegistry, slowCalls } from '../unit/rpc/test-methods.js';

const ORIGIN = 'https://wallet.example';
const MAX_BODY = 64 * 1024;

let server: RpcServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer({ accessControlAllowOrigin: ORIGIN, maxBodyBytes: MAX_BODY, maxBatchSize: 10, allowedMethods: ['other'] });
  url = `http://${LOOPBACK}:${server.port}`;
});

afterAll(async () => {
  await server.stop();
});

const post = (body: string | Uint8Array, path = '/rpc', init: RequestInit = {}): Promise<Response> =>
  fetch(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init });

/** How many complete HTTP/1.1 responses (head and Content-Length body) `raw` starts with. */
function completeResponses(raw: string): number {
  let count = 0;
  let offset = 0;
  for (;;) {
    const headEnd = raw.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return count;
    const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(offset, headEnd))?.[1];
    const end = headEnd + 4 + Number(length ?? 0);
    if (raw.length < end) return count;
    count += 1;
    offset = end;
  }
}

/**
 * Sends raw bytes on a fresh TCP connection and returns what comes back once `responses`
 * complete HTTP responses have arrived (or the server closed, or 5 s passed: the caller's
 * expectation then shows what was missing).
 */
function rawExchange(bytes: string, responses: number): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const done = (): void => {
      clearTimeout(limit);
      socket.destroy();
      resolve(received);
    };
    const limit = setTimeout(done, 5_000);
    const socket = connect(server.port, LOOPBACK, () => socket.write(bytes));
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (completeResponses(received) >= responses) done();
    });
    socket.on('error', () => undefined);
    socket.on('close', done);
  });
}

/** Sends raw bytes on a fresh TCP connection and closes it as soon as they are written. */
function sendAndHangUp(bytes: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(server.port, LOOPBACK, () => socket.write(bytes, () => socket.destroy()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

describe('RPC over HTTP: answers', () => {
  it('binds an ephemeral port on loopback', () => {
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers POST /rpc with 200, application/json, the CORS origin and the exact JSON-RPC body', async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":40,"b":2}}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await response.text()).toBe('{"jsonrpc":"2.0","id":1,"result":42}');
  });

  it('answers JSON-RPC errors with HTTP 200', async () => {
    const cases: [string, number][] = [
      ['{', -32700],
      ['{"jsonrpc":"1.0","id":1,"method":"test_echo"}', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"test_echo","params":[1]}', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"nope_nope"}', -32601],
      ['{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":1}}', -32602],
      ['{"jsonrpc":"2.0","id":1,"method":"test_crash"}', -32603],
      ['{"jsonrpc":"2.0","id":1,"method":"test_missing","params":{"height":-1}}', -32001],
      ['{"jsonrpc":"2.0","id":1,"method":"test_secret"}', -32002],
      ['[]', -32600],
      [JSON.stringify(Array.from({ length: 11 }, () => ({ jsonrpc: '2.0', id: 1, method: 'test_echo' }))), -32600],
    ];
    for (const [body, code] of cases) {
      const response = await post(body);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { error: { code: number; message: string } };
      expect(answer.error.code).toBe(code);
      expect(answer.error.message).not.toContain('secret-path');
    }
  });

  it('serves a sensitive method that allowedMethods unlocks', async () => {
    const response = await post('{"jsonrpc":"2.0","id":"s","method":"other_secret"}');
    expect(await response.text()).toBe('{"jsonrpc":"2.0","id":"s","result":"other secret"}');
  });

  it('answers a batch with an array and a notification-only message with 204 and no body', async () => {
    const batch = await post(
      '[{"jsonrpc":"2.0","id":1,"method":"test_echo"},{"jsonrpc":"2.0","method":"test_echo"},{"jsonrpc":"2.0","id":2,"method":"x_y"}]',
    );
    expect(await batch.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method "x_y" not found.' } },
    ]);
    const notification = await post('{"jsonrpc":"2.0","method":"test_echo"}');
    expect(notification.status).toBe(204);
    expect(notification.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await notification.text()).toBe('');
  });

  it('ignores the query string on /rpc', async () => {
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"test_echo"}', '/rpc?x=1');
    expect(response.status).toBe(200);
  });
});

describe('RPC over HTTP: routes and CORS', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s /rpc with 405, Allow and the CORS origin', async (method) => {
    const response = await fetch(`${url}/rpc`, { method, body: method === 'GET' ? undefined : '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await response.text()).toBe(`${method} is not allowed for the request.`);
  });

  it('answers the OPTIONS preflight with 204 and the CORS headers', async () => {
    const response = await fetch(`${url}/rpc`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(response.headers.get('access-control-max-age')).toBe('86400');
    expect(await response.text()).toBe('');
  });

  it.each([
    ['POST', '/'],
    ['POST', '/rpc/'],
    ['POST', '/api/rpc'],
    ['GET', '/'],
    ['OPTIONS', '/other'],
    ['GET', '/rpc-ws'],
  ])('answers %s %s with 404 and the CORS origin', async (method, path) => {
    const response = await fetch(`${url}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await response.text()).toContain('Not found.');
  });
});

describe('RPC over HTTP: body limit', () => {
  it('accepts a body of exactly maxBodyBytes', async () => {
    const request = '{"jsonrpc":"2.0","id":1,"method":"test_echo"}';
    const response = await post(request + ' '.repeat(MAX_BODY - request.length));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it.each([MAX_BODY + 1, 3_000_000])('answers 413 to a %i-byte body with Content-Length, and keeps serving', async (size) => {
    const response = await post(new Uint8Array(size).fill(0x20));
    expect(response.status).toBe(413);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await response.text()).toBe(`The request body exceeds the limit of ${MAX_BODY} bytes.`);
    const after = await post('{"jsonrpc":"2.0","id":1,"method":"test_echo"}');
    expect(after.status).toBe(200);
  });

  it('answers 413 to a chunked body that grows past the limit', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded: at most 4 MB, in 16 KiB chunks.
        if (sent >= 4_000_000) {
          controller.close();
          return;
        }
        sent += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const response = await fetch(`${url}/rpc`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(4_000_000);
  });

  it('reads a chunked body under the limit', async () => {
    const parts = ['{"jsonrpc":"2.0",', '"id":9,"method":"test_sum",', '"params":{"a":1,"b":2}}'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const response = await fetch(`${url}/rpc`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(await response.text()).toBe('{"jsonrpc":"2.0","id":9,"result":3}');
  });

  it('decodes a multi-chunk body containing multi-byte characters split across chunks', async () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":{"s":"${'é€😀'.repeat(5000)}"}}`;
    const bytes = new TextEncoder().encode(text);
    const response = await post(bytes);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { s: 'é€😀'.repeat(5000) } });
  });
});

describe('RPC over HTTP: aborted requests', () => {
  it('survives clients that disconnect mid-body, mid-headers and while a method runs', async () => {
    // Mid-body: Content-Length promises 1000 bytes, 3 arrive, the client leaves.
    await sendAndHangUp('POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"js');
    // Mid-headers.
    await sendAndHangUp('POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Le');
    // Chunked, mid-chunk.
    await sendAndHangUp('POST /rpc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{"jsonrpc"');
    // While the method is running: the answer must not be written to the closed response.
    const controller = new AbortController();
    let started = once(slowCalls, 'start');
    let finished = once(slowCalls, 'finish');
    const slow = post('{"jsonrpc":"2.0","id":1,"method":"test_slow","params":{"ms":200}}', '/rpc', { signal: controller.signal });
    await started;
    controller.abort();
    await expect(slow).rejects.toThrow();
    await finished;
    // A full request written, the connection closed before the answer.
    started = once(slowCalls, 'start');
    finished = once(slowCalls, 'finish');
    await sendAndHangUp(
      'POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 67\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"test_slow","params":{"ms":100}}  ',
    );
    await started;
    await finished;
    const after = await post('{"jsonrpc":"2.0","id":1,"method":"test_echo"}');
    expect(await after.text()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it('answers pipelined HTTP/1.1 requests to synchronous methods in order', async () => {
    const bodies = [
      '{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":1,"b":1}}',
      '{"jsonrpc":"2.0","id":2,"method":"test_echo"}',
      '{',
    ];
    const requests = bodies.map((body) => `POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`).join('');
    const raw = await rawExchange(requests, bodies.length);
    const answers = raw
      .split('HTTP/1.1 200 OK\r\n')
      .slice(1)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4));
    expect(answers).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":2}',
      '{"jsonrpc":"2.0","id":2,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the request is not valid JSON."}}',
    ]);
  });

  it('answers a raw HTTP/1.1 request with the JSON-RPC body', async () => {
    const body = '{"jsonrpc":"2.0","id":5,"method":"test_echo"}';
    const raw = await rawExchange(`POST /rpc HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 1);
    expect(raw.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(raw.endsWith('\r\n\r\n{"jsonrpc":"2.0","id":5,"result":{}}')).toBe(true);
  });
});

describe('RpcServer: listening and modes', () => {
  it('rejects start() with a clear error when the port is taken, and binds nothing', async () => {
    const second = new RpcServer(
      { modes: ['http'], host: LOOPBACK, port: server.port, allowedMethods: [] },
      buildTestRegistry(),
      silentLogger,
    );
    await expect(second.start()).rejects.toThrow(`The RPC server cannot listen on ${LOOPBACK}:${server.port}: the port is in use`);
    await second.stop();
    const response = await post('{"jsonrpc":"2.0","id":1,"method":"test_echo"}');
    expect(response.status).toBe(200);
  });

  it('serves only WebSocket with modes ["ws"]: POST /rpc is 404', async () => {
    const wsOnly = await startTestServer({ modes: ['ws'] });
    try {
      const response = await fetch(`http://${LOOPBACK}:${wsOnly.port}/rpc`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
      const socket = new WebSocket(`ws://${LOOPBACK}:${wsOnly.port}/rpc-ws`);
      const answer = await new Promise<string>((resolve, reject) => {
        socket.on('open', () => socket.send('{"jsonrpc":"2.0","id":1,"method":"test_echo"}'));
        socket.on('message', (data) => resolve(String(data)));
        socket.on('error', reject);
      });
      expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
      socket.close();
    } finally {
      await wsOnly.stop();
    }
  });

  it('serves only HTTP with modes ["http"]: the WebSocket upgrade is refused with 404', async () => {
    const httpOnly = await startTestServer({ modes: ['http'] });
    try {
      const socket = new WebSocket(`ws://${LOOPBACK}:${httpOnly.port}/rpc-ws`);
      const status = await new Promise<number>((resolve) => {
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => resolve(101));
        socket.on('error', () => undefined);
      });
      expect(status).toBe(404);
      socket.terminate();
    } finally {
      await httpOnly.stop();
    }
  });

  it('binds nothing for modes ["ipc"] alone (no IPC transport added) and stops cleanly', async () => {
    const ipcOnly = new RpcServer({ modes: ['ipc'], host: LOOPBACK, port: 0, allowedMethods: [] }, buildTestRegistry(), silentLogger);
    await ipcOnly.start();
    expect(ipcOnly.port).toBe(0);
    ipcOnly.publish('app_ready', {});
    await ipcOnly.stop();
  });

  it('starts and stops an added transport and hands it each event serialized once', async () => {
    const received: [string, string][] = [];
    const calls: string[] = [];
    const extra = new RpcServer({ modes: ['ipc'], host: LOOPBACK, port: 0, allowedMethods: [] }, buildTestRegistry(), silentLogger);
    extra.addTransport({
      mode: 'ipc',
      start: async () => {
        calls.push('start');
      },
      stop: async () => {
        calls.push('stop');
      },
      hasSubscribers: () => true,
      publish: (eventName, notification) => {
        received.push([eventName, notification]);
      },
    });
    await extra.start();
    expect(await extra.dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":1,"b":1}}')).toBe(
      '{"jsonrpc":"2.0","id":1,"result":2}',
    );
    extra.publish('chain_newBlock', { height: 3 });
    extra.publish('bad_event', { amount: 1n });
    await extra.stop();
    expect(calls).toEqual(['start', 'stop']);
    expect(received).toEqual([['chain_newBlock', '{"jsonrpc":"2.0","method":"chain_newBlock","params":{"height":3}}']]);
  });

  it('stops while an HTTP request is running without writing to the closed response', async () => {
    const temporary = await startTestServer();
    const started = once(slowCalls, 'start');
    const finished = once(slowCalls, 'finish');
    const pending = fetch(`http://${LOOPBACK}:${temporary.port}/rpc`, {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"test_slow","params":{"ms":150}}',
    });
    await started;
    await temporary.stop();
    await expect(pending).rejects.toThrow();
    // The method ends after the stop; its answer must go nowhere, without an error.
    await finished;
  });

  it('stops listening on stop()', async () => {
    const temporary = await startTestServer();
    const port = temporary.port;
    expect((await fetch(`http://${LOOPBACK}:${port}/rpc`, { method: 'POST', body: '{' })).status).toBe(200);
    await temporary.stop();
    await expect(fetch(`http://${LOOPBACK}:${port}/rpc`, { method: 'POST', body: '{' })).rejects.toThrow();
  });
});
