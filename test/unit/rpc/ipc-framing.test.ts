/**
 * The frame layout of the IPC transport (lisk-sdk controller/ipc/ipc_server.ts): how a ROUTER
 * message splits into routing frames and body, the frames of an answer, the two frames of an event,
 * and the transport's option checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import {
  IPC_DEFAULTS,
  IpcTransport,
  MULTI_FRAME_REQUEST_RESPONSE,
  answerFrames,
  eventFrames,
  splitRequestFrames,
} from '../../../src/rpc/ipc-transport.js';

const identity = Buffer.from([0x00, 0x6b, 0x8b, 0x45, 0x67]);
const request = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"system_getNodeInfo","params":{}}');
const empty = Buffer.alloc(0);

describe('splitRequestFrames', () => {
  it('reads a DEALER request: [identity, body]', () => {
    const split = splitRequestFrames([identity, request]);
    expect(split).toEqual({ envelope: [identity], body: request });
    expect(split?.envelope[0]).toBe(identity);
    expect(split?.body).toBe(request);
  });

  it('reads a REQ request: [identity, "", body], keeping the delimiter for the answer', () => {
    expect(splitRequestFrames([identity, empty, request])).toEqual({ envelope: [identity, empty], body: request });
  });

  it('keeps an empty body as the body (it gets a parse error answer)', () => {
    expect(splitRequestFrames([identity, empty])).toEqual({ envelope: [identity], body: empty });
    expect(splitRequestFrames([identity, empty, empty])).toEqual({ envelope: [identity, empty], body: empty });
  });

  it('has no body for a request split over several frames', () => {
    const [a, b] = [Buffer.from('{"jsonrpc":"2.0",'), Buffer.from('"id":1}')];
    expect(splitRequestFrames([identity, a, b])).toEqual({ envelope: [identity], body: undefined });
    expect(splitRequestFrames([identity, empty, a, b])).toEqual({ envelope: [identity, empty], body: undefined });
  });

  it('ignores a message without any frame after the identity', () => {
    expect(splitRequestFrames([identity])).toBeUndefined();
    expect(splitRequestFrames([])).toBeUndefined();
  });

  it('gives back exactly the frames it was given, envelope first (property)', () => {
    const frame = fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes));
    fc.assert(
      fc.property(frame, fc.array(frame, { minLength: 1, maxLength: 4 }), (id, rest) => {
        const frames = [id, ...rest];
        const split = splitRequestFrames(frames);
        expect(split).toBeDefined();
        const { envelope, body } = split as NonNullable<typeof split>;
        expect(envelope[0]).toBe(id);
        // Either one body frame right after the routing frames, or the request is refused as multi-frame.
        if (body !== undefined) expect([...envelope, body]).toEqual(frames);
        else expect(frames.length).toBeGreaterThan(envelope.length + 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('answerFrames', () => {
  it('puts the routing frames in front of the answer text', () => {
    expect(answerFrames([identity], '{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual([identity, '{"jsonrpc":"2.0","id":1,"result":{}}']);
    expect(answerFrames([identity, empty], 'x')).toEqual([identity, empty, 'x']);
  });
});

describe('eventFrames', () => {
  it('is [eventName, notification]: the topic frame clients filter on by prefix, then the JSON', () => {
    const notification = '{"jsonrpc":"2.0","method":"chain_newBlock","params":{"blockHeader":{}}}';
    expect(eventFrames('chain_newBlock', notification)).toEqual(['chain_newBlock', notification]);
  });
});

describe('MULTI_FRAME_REQUEST_RESPONSE', () => {
  it('is a -32600 answer with id null', () => {
    expect(JSON.parse(MULTI_FRAME_REQUEST_RESPONSE)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid request: an IPC request must be a single frame holding the JSON text.' },
    });
  });
});

describe('IpcTransport options', () => {
  const dispatcher = { dispatch: () => undefined, dispatchAnswer: () => undefined };

  it('resolves the socket paths at construction and touches nothing', () => {
    const transport = new IpcTransport(dispatcher, { dataPath: '/srv/lisk' }, silentLogger);
    expect(transport.mode).toBe('ipc');
    expect(transport.socketDir).toBe('/srv/lisk/tmp/sockets');
    expect(transport.socketPaths.rpc).toBe('/srv/lisk/tmp/sockets/engine.external.rpc.ipc');
    expect(transport.hasSubscribers()).toBe(false);
    expect(IPC_DEFAULTS).toEqual({ maxMessageBytes: 1024 * 1024, maxConcurrentRequests: 1024 });
  });

  it('refuses bad options with a message naming them', () => {
    expect(() => new IpcTransport(dispatcher, { dataPath: '' }, silentLogger)).toThrow(
      'IPC transport: dataPath must be a non-empty string.',
    );
    expect(() => new IpcTransport(dispatcher, { dataPath: '/x', maxMessageBytes: 0 }, silentLogger)).toThrow(
      'IPC transport: maxMessageBytes must be an integer from 1 to 2147483647, got 0.',
    );
    expect(() => new IpcTransport(dispatcher, { dataPath: '/x', maxConcurrentRequests: 1.5 }, silentLogger)).toThrow(
      'IPC transport: maxConcurrentRequests must be an integer from 1 to 2147483647, got 1.5.',
    );
  });

  it('stops without having started, and starts only once', async () => {
    const transport = new IpcTransport(dispatcher, { dataPath: '/x' }, silentLogger);
    await transport.stop();
    await expect(transport.start()).rejects.toThrow('The IPC transport can only be started once.');
  });
});
