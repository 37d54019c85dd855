/**
 * Two or three P2pNetwork nodes on real loopback sockets: connecting, node info both ways,
 * requests and messages, node-info pushes, discovery through getPeers, and the keep-alive rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { codec } from '../../../src/codec/index.js';
import {
  chainProcedures,
  P2pNoPeerError,
  P2pNotPermittedError,
  P2pPeerNotFoundError,
  P2pRateLimitError,
  P2pRemoteError,
  P2pTimeoutError,
  type IncomingMessage,
  type P2pNetwork,
  type P2pPeerInfo,
  type ServedProcedure,
} from '../../../src/p2p/index.js';
import { getBlocksFromIdRequestSchema, getBlocksFromIdResponseSchema } from '../../../src/p2p/schemas.js';
import { devChain } from './support/memory-chain.js';
import { nextEvent, RawPeer, startNode, stopNodes, until } from './support/network-harness.js';

const chain = devChain();
const tipOptions = { height: chain.tipHeight, maxHeightPrevoted: 400, blockVersion: 2, lastBlockID: chain.idAt(chain.tipHeight) };

afterEach(stopNodes);

async function servingNode(host: string, extra: Parameters<typeof startNode>[1] = {}): Promise<P2pNetwork> {
  return startNode(host, { handlers: { procedures: chainProcedures(chain) }, nodeInfoOptions: tipOptions, ...extra });
}

/** B dials A (a fixed peer) and both see the connection. */
async function pair(
  a: P2pNetwork,
  host: string,
  extra: Parameters<typeof startNode>[1] = {},
): Promise<{ b: P2pNetwork; aSeesB: P2pPeerInfo; bSeesA: P2pPeerInfo }> {
  const inbound = nextEvent<[P2pPeerInfo]>(a, 'peer:connect');
  const b = await startNode(host, { fixedPeers: [{ ipAddress: '127.0.0.2', port: a.port }], ...extra });
  const [bSeesA] = await nextEvent<[P2pPeerInfo]>(b, 'peer:connect');
  const [aSeesB] = await inbound;
  return { b, aSeesB, bSeesA };
}

describe('connecting', () => {
  it('handshakes, exchanges node info both ways and binds the outbound socket to network.host', async () => {
    const a = await servingNode('127.0.0.2');
    const bUpdated = nextEvent<[P2pPeerInfo]>(a, 'peer:update');
    const { b, aSeesB, bSeesA } = await pair(a, '127.0.0.3', { nodeInfoOptions: { height: 5 } });
    expect(bSeesA).toMatchObject({
      peerId: `127.0.0.2:${a.port}`,
      direction: 'outbound',
      networkVersion: '1.0',
      nonce: a.nonce,
      advertiseAddress: true,
    });
    expect(bSeesA.options).toEqual({ ...tipOptions, legacy: [] });
    expect(aSeesB).toMatchObject({ peerId: `127.0.0.3:${b.port}`, direction: 'inbound', nonce: b.nonce, advertiseAddress: true });
    const [update] = await bUpdated;
    expect(update.options?.height).toBe(5);
    expect(a.connectedPeers().map((peer) => peer.peerId)).toEqual([`127.0.0.3:${b.port}`]);
    expect(b.triedPeers()).toEqual([{ ipAddress: '127.0.0.2', port: a.port }]);
    expect(b.getStats().outgoing).toMatchObject({ count: 1, connects: 1 });
    expect(a.getStats().totalRequestsReceived).toMatchObject({ getNodeInfo: 1, getPeers: 1 });
  });

  it('hides peers that connect with advertiseAddress=false unless asked', async () => {
    const a = await servingNode('127.0.0.2');
    await pair(a, '127.0.0.3', { advertiseAddress: false });
    expect(a.connectedPeers()).toEqual([]);
    expect(a.connectedPeers({ includeHidden: true })).toHaveLength(1);
    expect(a.disconnectedPeers()).toEqual([]);
  });

  it('refuses a peer of another chain with 4104 and reports the failed connection', async () => {
    const a = await servingNode('127.0.0.2');
    const b = await startNode('127.0.0.3', {
      chainID: Buffer.from('04000002', 'hex'),
      fixedPeers: [{ ipAddress: '127.0.0.2', port: a.port }],
    });
    const [failure] = await nextEvent<[{ peerId: string; error: Error }]>(b, 'peer:connect-failed');
    expect(failure.error.message).toMatch(/4104.*Peer chainID did not match our own/);
    expect(b.connectedPeers()).toEqual([]);
  });

  it('stop() closes every connection with 1000 and the peer sees the reason', async () => {
    const a = await servingNode('127.0.0.2');
    const { b } = await pair(a, '127.0.0.3');
    const closed = nextEvent<[{ code: number; reason: string }]>(b, 'peer:disconnect');
    await a.stop();
    const [event] = await closed;
    expect(event).toMatchObject({ code: 1000, reason: `Intentionally removed peer 127.0.0.3:${b.port}` });
  });
});

describe('requests and messages', () => {
  it('fetches the last block and blocks from an ID over the wire', async () => {
    const a = await servingNode('127.0.0.2');
    const { b, bSeesA } = await pair(a, '127.0.0.3');
    const last = await b.request('getLastBlock');
    expect(last.peerId).toBe(bSeesA.peerId);
    expect(Block.fromBytes(last.data!).header.id).toEqual(chain.idAt(420));
    const answer = await b.request('getBlocksFromId', codec.encode(getBlocksFromIdRequestSchema, { blockId: chain.idAt(317) }), {
      peerId: bSeesA.peerId,
    });
    const { blocks } = codec.decode<{ blocks: Buffer[] }>(getBlocksFromIdResponseSchema, answer.data!);
    expect(blocks.map((bytes) => Block.fromBytes(bytes).header.height)).toEqual(Array.from({ length: 103 }, (_, i) => 420 - i));
  });

  it('sends answers kept in base64 as the same frames as answers built afresh', async () => {
    const finalized = Object.assign(Object.create(chain) as typeof chain, { finalizedHeight: () => chain.tipHeight });
    const fresh = chainProcedures(chain).getBlocksFromId!;
    const a = await servingNode('127.0.0.2', { handlers: { procedures: chainProcedures(finalized) } });
    const { b, bSeesA } = await pair(a, '127.0.0.3');
    for (const height of [0, 317, 420]) {
      const request = codec.encode(getBlocksFromIdRequestSchema, { blockId: chain.idAt(height) });
      const expected = Buffer.from((await fresh(request, { peerId: 'p', penalize: () => undefined })) as Uint8Array);
      for (let i = 0; i < 2; i += 1) {
        const answer = await b.request('getBlocksFromId', request, { peerId: bSeesA.peerId });
        expect(answer.data).toEqual(expected);
        expect(answer.peerId).toBe(bSeesA.peerId);
      }
    }
  });

  it('reports error answers, timeouts and misuse with typed errors', async () => {
    const slow = new Promise<Uint8Array>(() => undefined);
    const a = await servingNode('127.0.0.2', { handlers: { procedures: { ...chainProcedures(chain), getTransactions: () => slow } } });
    const { b, bSeesA } = await pair(a, '127.0.0.3', { timing: { outboundAckTimeout: 300 } });
    const unknownId = codec.encode(getBlocksFromIdRequestSchema, { blockId: Buffer.alloc(32, 9) });
    await expect(b.request('getBlocksFromId', unknownId)).rejects.toBeInstanceOf(P2pRemoteError);
    await expect(b.request('getTransactions')).rejects.toBeInstanceOf(P2pTimeoutError);
    await expect(b.request('getLegacyBlocksFromId')).rejects.toThrow(/not served by this node/);
    await expect(b.request('getNodeInfo' as ServedProcedure)).rejects.toBeInstanceOf(P2pNotPermittedError);
    await expect(b.request('getLastBlock', undefined, { peerId: '127.0.0.9:1' })).rejects.toBeInstanceOf(P2pPeerNotFoundError);
    expect(() => b.sendToPeer(bSeesA.peerId, 'postNodeInfo' as never)).toThrow(P2pNotPermittedError);
    const lonely = await startNode('127.0.0.4');
    await expect(lonely.request('getLastBlock')).rejects.toBeInstanceOf(P2pNoPeerError);
  });

  it('keeps its own requests within the peer’s rate limits instead of being penalised', async () => {
    const a = await servingNode('127.0.0.2');
    const { b } = await pair(a, '127.0.0.3');
    for (let i = 0; i < 3; i += 1) await b.request('getTransactions');
    await expect(b.request('getTransactions')).rejects.toBeInstanceOf(P2pRateLimitError);
    expect(a.connectedPeers()).toHaveLength(1);
  });

  it('delivers messages to the handlers with the sender’s ID; send, broadcast and sendToPeer', async () => {
    const received: IncomingMessage[] = [];
    const a = await servingNode('127.0.0.2', {
      handlers: {
        messages: {
          postBlock: (data, context) => {
            received.push({ event: 'postBlock', data, peerId: context.peerId });
          },
        },
      },
    });
    const { b, aSeesB, bSeesA } = await pair(a, '127.0.0.3');
    b.send('postBlock', Buffer.from('0a0101', 'hex'));
    b.broadcast('postBlock', Buffer.from('0a0102', 'hex'));
    b.sendToPeer(bSeesA.peerId, 'postBlock');
    await until(() => received.length === 3);
    expect(received.map((message) => [message.peerId, message.data?.toString('hex')])).toEqual([
      [aSeesB.peerId, '0a0101'],
      [aSeesB.peerId, '0a0102'],
      [aSeesB.peerId, undefined],
    ]);
  });

  it('an exception in one of the node’s event listeners is logged and counted, the connection stays', async () => {
    const a = await servingNode('127.0.0.2');
    a.on('message:received', () => {
      throw new Error('listener bug');
    });
    const { b } = await pair(a, '127.0.0.3');
    b.send('postBlock', Buffer.from('0a0101', 'hex'));
    await until(() => a.getStats().totalErrors > 0);
    expect(a.connectedPeers()).toHaveLength(1);
  });

  it('answers postSingleCommitMessages beyond 10 per window by skipping the send, not by flooding', async () => {
    const a = await servingNode('127.0.0.2');
    const { b, bSeesA } = await pair(a, '127.0.0.3');
    for (let i = 0; i < 10; i += 1) b.sendToPeer(bSeesA.peerId, 'postSingleCommitMessages', Buffer.alloc(0));
    expect(() => b.sendToPeer(bSeesA.peerId, 'postSingleCommitMessages', Buffer.alloc(0))).toThrow(P2pRateLimitError);
  });
});

describe('node info pushes', () => {
  it('pushes every change, at most 4 per window per peer, the deferred push carrying the latest values', async () => {
    const a = await servingNode('127.0.0.2', { timing: { rateWindow: 1_000 } });
    const { b } = await pair(a, '127.0.0.3');
    const heights: number[] = [];
    b.on('peer:update', (peer) => heights.push(peer.options!.height));
    for (let height = 421; height <= 426; height += 1) a.applyNodeInfo({ height });
    await until(() => heights.at(-1) === 426, 3_000, 'latest height');
    // one push at connect + three of the six changes fit the window; the rest collapse into one
    expect(heights).toEqual([421, 422, 423, 426]);
    expect(a.getNodeInfo().options.height).toBe(426);
  });
});

describe('discovery', () => {
  it('learns peers from getPeers and connects to them', async () => {
    const a = await servingNode('127.0.0.2');
    const c = await startNode('127.0.0.4', { fixedPeers: [{ ipAddress: '127.0.0.2', port: a.port }] });
    await nextEvent(c, 'peer:connect');
    const b = await startNode('127.0.0.3', { seedPeers: [{ ipAddress: '127.0.0.2', port: a.port }] });
    await until(() => b.connectedPeers().some((peer) => peer.peerId === `127.0.0.4:${c.port}`), 5_000, 'B connected to C');
    expect(b.getStats().totalPeersDiscovered).toBeGreaterThanOrEqual(1);
    // B also hears of itself from A; dialling that address reaches its own server, which refuses it (4101)
    expect(b.connectedPeers({ includeHidden: true }).every((peer) => peer.ipAddress !== '127.0.0.3')).toBe(true);
    expect(b.getStats().banning.count + a.getStats().banning.count).toBe(0);
  });
});

describe('keep-alive', () => {
  it('the server pings with #1; a client that answers #2 stays, a silent one is closed with 4001', async () => {
    const a = await servingNode('127.0.0.2', { timing: { pingInterval: 100, pingTimeout: 500 } });
    const polite = await RawPeer.connect('127.0.0.2', a.port, { localAddress: '127.0.0.5' });
    const silent = await RawPeer.connect('127.0.0.2', a.port, { localAddress: '127.0.0.6', answerPings: false, claims: { port: 40_001 } });
    expect(await polite.handshake()).toMatchObject({ pingTimeout: 500, isAuthenticated: false });
    await silent.handshake();
    expect(await silent.waitClosed()).toMatchObject({ code: 4001 });
    expect(polite.closed).toBeUndefined();
    expect(polite.frames.filter((frame) => frame === '#1').length).toBeGreaterThanOrEqual(3);
    polite.close();
  });

  it('a server peer measures latency with the "ping" procedure; our client answers it with "pong"', async () => {
    const a = await servingNode('127.0.0.2', { timing: { latencyPingMin: 50, latencyPingMax: 60 } });
    const { b } = await pair(a, '127.0.0.3');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.connectedPeers()).toHaveLength(1);
    expect(b.connectedPeers()).toHaveLength(1);
    expect(a.getStats().banning.count).toBe(0);
  });

  it('a handshake must come first (else 4009) and within the handshake timeout (else 4005)', async () => {
    const a = await servingNode('127.0.0.2', { timing: { handshakeTimeout: 300 } });
    const eager = await RawPeer.connect('127.0.0.2', a.port, { localAddress: '127.0.0.5' });
    eager.send({ event: 'rpc-request', data: { procedure: 'getLastBlock' }, cid: 2 });
    expect(await eager.waitClosed()).toMatchObject({ code: 4009 });
    const late = await RawPeer.connect('127.0.0.2', a.port, { localAddress: '127.0.0.6' });
    expect(await late.waitClosed()).toMatchObject({ code: 4005 });
  });
});
