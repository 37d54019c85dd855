/**
 * How a node treats peers that break the rules, on real loopback sockets: bans (and the HTTP 401
 * that follows), the frame filter, control frames, admission refusals, rate limits, penalties
 * that spare configured peers, inbound eviction; and, against a hand-written server, how our
 * client keeps a connection alive.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { chainProcedures, P2pConnectionClosedError, type P2pNetwork, type P2pPeerInfo, P2pTimeoutError } from '../../../src/p2p/index.js';
import { encodeNodeInfo, emptyNodeInfoOptions } from '../../../src/p2p/node-info.js';
import { devChain } from './support/memory-chain.js';
import { CHAIN_ID, nextEvent, RawPeer, startNode, stopNodes, until } from './support/network-harness.js';

const chain = devChain(10);

afterEach(stopNodes);

const serving = (host = '127.0.0.2', extra: Parameters<typeof startNode>[1] = {}) =>
  startNode(host, { handlers: { procedures: chainProcedures(chain) }, ...extra });

async function admitted(
  a: P2pNetwork,
  localAddress: string,
  claims: Parameters<typeof RawPeer.connect>[2]['claims'] = {},
): Promise<RawPeer> {
  const peer = await RawPeer.connect('127.0.0.2', a.port, { localAddress, claims });
  await peer.handshake();
  return peer;
}

/** The IP is banned: the server refuses the upgrade with HTTP 401. */
async function expectRefusedUpgrade(a: P2pNetwork, localAddress: string): Promise<void> {
  await expect(RawPeer.connect('127.0.0.2', a.port, { localAddress })).rejects.toThrow('HTTP 401');
}

describe('bans', () => {
  it('an unknown procedure costs 100: #disconnect 1000 (the error answer comes too late), then HTTP 401 for that IP', async () => {
    const a = await serving();
    const bans = nextEvent<[{ ipAddress: string }]>(a, 'peer:ban');
    const peer = await admitted(a, '127.0.0.5');
    peer.send({ event: 'rpc-request', data: { procedure: 'getBlocksFromHeight' }, cid: 2 });
    expect(await peer.waitClosed()).toMatchObject({ code: 1000 });
    expect(peer.disconnectEvent()).toEqual({ code: 1000 });
    expect((await bans)[0].ipAddress).toBe('127.0.0.5');
    await expectRefusedUpgrade(a, '127.0.0.5');
    expect(a.bannedIPs()).toEqual(['127.0.0.5']);
    // other addresses are not affected
    (await admitted(a, '127.0.0.6')).close();
  });

  it('a trusted (seed) peer asking an unknown procedure only gets the error answer', async () => {
    const a = await serving('127.0.0.2', { seedPeers: [{ ipAddress: '127.0.0.5', port: 40_000 }] });
    const peer = await admitted(a, '127.0.0.5');
    const answer = await peer.request('getBlocksFromHeight');
    expect(answer.error).toEqual({ message: 'Requested procedure "getBlocksFromHeight" is not permitted.' });
    expect(peer.closed).toBeUndefined();
    peer.close();
  });

  it('so does a client that sends "ping" to a server, an unknown message, or an invalid getBlocksFromId', async () => {
    const a = await serving();
    const pinger = await admitted(a, '127.0.0.5');
    pinger.send({ event: 'rpc-request', data: { procedure: 'ping' }, cid: 2 });
    expect((await pinger.waitClosed()).code).toBe(1000);
    const gossip = await admitted(a, '127.0.0.6');
    gossip.message('postVotes', '');
    expect((await gossip.waitClosed()).code).toBe(1000);
    const invalid = await admitted(a, '127.0.0.7');
    invalid.send({ event: 'rpc-request', data: { procedure: 'getBlocksFromId', data: 'CgEB' }, cid: 2 });
    expect((await invalid.waitClosed()).code).toBe(1000);
    expect(a.bannedIPs().sort()).toEqual(['127.0.0.5', '127.0.0.6', '127.0.0.7']);
  });

  it('a WebSocket ping control frame: socket terminated, IP banned', async () => {
    const a = await serving();
    const peer = await admitted(a, '127.0.0.5');
    peer.ws.ping();
    expect((await peer.waitClosed()).code).toBe(1006);
    await expectRefusedUpgrade(a, '127.0.0.5');
  });

  it('the frame filter: #1 from a client, extra keys, channel events, non-object data, even before the handshake', async () => {
    const a = await serving();
    const frames = [
      '#1',
      '{"event":"remote-message","data":{"event":"postBlock"},"extra":1}',
      '{"event":"#subscribe","data":{},"cid":2}',
      '{"event":"x","data":"text"}',
    ];
    for (const [i, frame] of frames.entries()) {
      const address = `127.0.0.${10 + i}`;
      const peer = await RawPeer.connect('127.0.0.2', a.port, { localAddress: address });
      if (i % 2 === 0) await peer.handshake();
      peer.send(frame);
      expect((await peer.waitClosed()).code, frame).toBe(1006);
      await expectRefusedUpgrade(a, address);
    }
  });

  it('more than 10 #disconnect events within a second from one IP', async () => {
    const a = await serving();
    const peer = await admitted(a, '127.0.0.5');
    for (let i = 0; i < 11; i += 1) peer.send({ event: '#disconnect', data: { code: 4000 } });
    expect((await peer.waitClosed()).code).toBe(1006);
    await expectRefusedUpgrade(a, '127.0.0.5');
  });

  it('a blacklisted IP is refused from the start', async () => {
    const a = await serving('127.0.0.2', { blacklistedIPs: ['127.0.0.5'] });
    await expectRefusedUpgrade(a, '127.0.0.5');
  });
});

describe('admission', () => {
  it('refuses with lisk-p2p close codes and a #disconnect carrying the reason', async () => {
    const a = await serving();
    const cases: [string, Parameters<typeof RawPeer.connect>[2]['claims'], number, string][] = [
      ['127.0.0.5', { chainID: Buffer.from('04000002', 'hex') }, 4104, 'Peer chainID did not match our own'],
      ['127.0.0.6', { networkVersion: '2.0' }, 4104, 'Peer has incompatible protocol version'],
      ['127.0.0.7', { nonce: a.nonce }, 4101, 'Peer cannot connect to itself'],
    ];
    for (const [address, claims, code, reason] of cases) {
      const peer = await RawPeer.connect('127.0.0.2', a.port, { localAddress: address, claims });
      peer.send({ event: '#handshake', data: { authToken: null }, cid: 1 });
      expect(await peer.waitClosed()).toMatchObject({ code });
      expect(peer.disconnectEvent()).toEqual({ code, data: reason });
      expect(peer.packets().some((packet) => packet.rid === 1)).toBe(false);
    }
    expect(a.bannedIPs()).toEqual([]);
  });

  it('a second connection under the same peer ID gets 4404; the first one stays', async () => {
    const a = await serving();
    const first = await admitted(a, '127.0.0.5', { port: 41_000 });
    const second = await RawPeer.connect('127.0.0.2', a.port, { localAddress: '127.0.0.5', claims: { port: 41_000 } });
    second.send({ event: '#handshake', data: { authToken: null }, cid: 1 });
    expect(await second.waitClosed()).toMatchObject({ code: 4404 });
    expect(first.closed).toBeUndefined();
    first.close();
  });

  it('pushes its node info before answering the handshake, answers getNodeInfo once per second, penalises repeats', async () => {
    const a = await serving();
    const peer = await admitted(a, '127.0.0.5');
    const order = peer.packets().map((packet) => (packet.rid === 1 ? 'handshake answer' : (packet.data as { event?: string }).event));
    expect(order).toEqual(['postNodeInfo', 'handshake answer']);
    const answer = await peer.request('getNodeInfo');
    expect(Buffer.from((answer.data as { data: string }).data, 'base64')).toEqual(encodeNodeInfo(a.getNodeInfo()));
    expect((answer.data as { peerId: string }).peerId).toBe('127.0.0.5:40000');
    await expect(peer.request('getNodeInfo', undefined, 300)).rejects.toThrow(/packet not reached/);
    expect(a.connectedPeers({ includeHidden: true })).toHaveLength(1);
    peer.close();
  });
});

describe('rate limits and penalties', () => {
  it('every call beyond a procedure’s limit costs 10: 3 getTransactions + 10 more per window ban the peer', async () => {
    const a = await serving();
    const peer = await admitted(a, '127.0.0.5');
    for (let i = 0; i < 12; i += 1) await peer.request('getTransactions');
    expect(peer.closed).toBeUndefined();
    peer.send({ event: 'rpc-request', data: { procedure: 'getTransactions' }, cid: 99 });
    expect((await peer.waitClosed()).code).toBe(1000);
    await expectRefusedUpgrade(a, '127.0.0.5');
  });

  it('applyPenalty bans ordinary peers but spares configured ones', async () => {
    const a = await serving('127.0.0.2', { whitelistedPeers: [{ ipAddress: '127.0.0.6', port: 40_000 }] });
    const ordinary = await admitted(a, '127.0.0.5');
    const whitelisted = await admitted(a, '127.0.0.6');
    a.applyPenalty('127.0.0.5:40000', 60);
    expect(ordinary.closed).toBeUndefined();
    a.applyPenalty('127.0.0.5:40000', 40);
    expect((await ordinary.waitClosed()).code).toBe(1000);
    a.applyPenalty('127.0.0.6:40000', 100);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(whitelisted.closed).toBeUndefined();
    expect(() => a.applyPenalty('127.0.0.9:1', 1)).toThrow(/No connected peer/);
    whitelisted.close();
  });

  it('evicts an unprotected inbound peer (4418) when inbound slots are full', async () => {
    const a = await serving('127.0.0.2', { maxInboundConnections: 6 });
    const first = await Promise.all([5, 6, 7, 8, 9, 10].map((i) => admitted(a, `127.0.0.${i}`)));
    const last = await admitted(a, '127.0.0.11');
    await until(() => first.some((peer) => peer.closed !== undefined));
    const evicted = first.filter((peer) => peer.closed !== undefined);
    expect(evicted).toHaveLength(1);
    expect(evicted[0]!.closed).toMatchObject({ code: 4418 });
    expect(evicted[0]!.disconnectEvent()?.data).toMatch(/^Evicted inbound peer 127\.0\.0\.\d+:40000$/);
    expect(last.closed).toBeUndefined();
    expect(a.connectedPeers({ includeHidden: true })).toHaveLength(6);
    for (const peer of [...first, last]) peer.close();
  });

  it('a whitelisted peer that breaks a protocol rule is disconnected but not banned', async () => {
    const a = await serving('127.0.0.2', { whitelistedPeers: [{ ipAddress: '127.0.0.6', port: 40_000 }] });
    const peer = await admitted(a, '127.0.0.6');
    peer.message('postNodeInfo', Buffer.from('ff', 'hex').toString('base64'));
    expect((await peer.waitClosed()).code).toBe(1000);
    expect(a.bannedIPs()).toEqual([]);
    (await admitted(a, '127.0.0.6')).close();
  });

  it('a frame over wsMaxPayload closes the socket with 1009, without a ban', async () => {
    const a = await serving('127.0.0.2', { wsMaxPayload: 1_024 });
    const peer = await admitted(a, '127.0.0.5');
    peer.message('postBlock', Buffer.alloc(1_024).toString('base64'));
    expect((await peer.waitClosed()).code).toBe(1009);
    expect(a.bannedIPs()).toEqual([]);
  });

  it('a peer with an oversized or undecodable postNodeInfo is banned', async () => {
    const a = await serving();
    const peer = await admitted(a, '127.0.0.5');
    peer.message('postNodeInfo', Buffer.from('ff', 'hex').toString('base64'));
    expect((await peer.waitClosed()).code).toBe(1000);
  });
});

interface ServerPacket {
  event?: string;
  cid?: number;
  data?: { procedure?: string };
}

/**
 * A minimal socketcluster server written by hand: it answers the handshake (with `pingTimeout`),
 * getNodeInfo and getPeers like a Lisk node, and hands every other frame to `onFrame`.
 */
async function handWrittenServer(
  host: string,
  pingTimeout: number,
  onFrame: (ws: WebSocket, text: string, packet: ServerPacket | undefined) => void,
): Promise<{ port: number; close: () => void }> {
  const wss = new WebSocketServer({ host, port: 0 });
  await once(wss, 'listening');
  const info = encodeNodeInfo({
    chainID: CHAIN_ID,
    networkVersion: '1.0',
    nonce: '0011223344556677',
    advertiseAddress: true,
    options: emptyNodeInfoOptions(),
  });
  wss.on('connection', (ws: WebSocket) => {
    ws.on('message', (raw) => {
      const text = raw.toString();
      const packet = text.startsWith('{') ? (JSON.parse(text) as ServerPacket) : undefined;
      if (packet?.event === '#handshake')
        ws.send(JSON.stringify({ rid: packet.cid, data: { id: 'x', pingTimeout, isAuthenticated: false } }));
      else if (packet?.data?.procedure === 'getNodeInfo')
        ws.send(JSON.stringify({ rid: packet.cid, data: { data: info.toString('base64'), peerId: 'x' } }));
      else if (packet?.data?.procedure === 'getPeers') ws.send(JSON.stringify({ rid: packet.cid, data: { data: '', peerId: 'x' } }));
      onFrame(ws, text, packet);
    });
  });
  return { port: (wss.address() as { port: number }).port, close: () => wss.close() };
}

describe('our client against a hand-written server', () => {
  it('answers #1 with #2 and the latency ping with "pong"; closes with 4000 when the pings stop', async () => {
    const received: string[] = [];
    let pinging: NodeJS.Timeout | undefined;
    // Counted, not timed: a loaded machine may fire the interval fewer times than planned.
    let pingsSent = 0;
    const server = await handWrittenServer('127.0.0.20', 1500, (ws, text, packet) => {
      received.push(text);
      if (packet?.event !== '#handshake') return;
      ws.send(JSON.stringify({ event: 'rpc-request', data: { procedure: 'ping' }, cid: 1 }));
      pinging = setInterval(() => {
        ws.send('#1');
        pingsSent += 1;
        if (pingsSent === 5) clearInterval(pinging);
      }, 100);
    });
    const b = await startNode('127.0.0.3', { fixedPeers: [{ ipAddress: '127.0.0.20', port: server.port }], maxInboundConnections: 0 });
    const [connected] = await nextEvent<[P2pPeerInfo]>(b, 'peer:connect');
    expect(connected.nonce).toBe('0011223344556677');
    const [closed] = await nextEvent<[{ code: number }]>(b, 'peer:disconnect');
    expect(closed.code).toBe(4000);
    expect(received).toContain(`{"rid":1,"data":{"data":"InBvbmci","peerId":"127.0.0.20:${server.port}"}}`);
    expect(pingsSent).toBe(5);
    expect(received.filter((text) => text === '#2').length).toBe(5);
    expect(received.some((text) => text === '#1' || text.includes('"procedure":"ping"'))).toBe(false);
    clearInterval(pinging);
    server.close();
  });

  it('gives up a connection that does not open within the connect timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.22', resolve));
    const port = (silent.address() as { port: number }).port;
    const b = await startNode('127.0.0.3', { fixedPeers: [{ ipAddress: '127.0.0.22', port }], timing: { connectTimeout: 300 } });
    const [failure] = await nextEvent<[{ peerId: string; error: Error }]>(b, 'peer:connect-failed');
    expect(failure.peerId).toBe(`127.0.0.22:${port}`);
    expect(failure.error).toBeInstanceOf(P2pTimeoutError);
    expect(failure.error.message).toBe('connect timed out after 300 ms');
    silent.close();
  });

  it('pending requests fail with P2pConnectionClosedError when the socket closes', async () => {
    const server = await handWrittenServer('127.0.0.21', 20_000, (ws, _text, packet) => {
      if (packet?.data?.procedure !== 'getLastBlock') return;
      ws.send(JSON.stringify({ event: '#disconnect', data: { code: 4999, data: 'going away' } }));
      ws.close(4999);
    });
    const b = await startNode('127.0.0.3', { fixedPeers: [{ ipAddress: '127.0.0.21', port: server.port }], maxInboundConnections: 0 });
    await nextEvent(b, 'peer:connect');
    const failure = await b.request('getLastBlock').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(P2pConnectionClosedError);
    expect(failure).toMatchObject({ closeCode: 4999, reason: 'going away' });
    await until(() => b.connectedPeers({ includeHidden: true }).length === 0);
    server.close();
  });
});
