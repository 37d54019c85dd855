/**
 * Byte- and text-level formats of Lisk P2P: node info and payload schemas (bytes as lisk-sdk 6.1
 * nodes put them on the wire), socketcluster frames and the server's frame filter, the
 * rpc-request / remote-message envelopes, the connection URL and the inbound admission checks.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import { admitInbound } from '../../../src/p2p/admission.js';
import { connectionUrl, parseConnectionQuery } from '../../../src/p2p/connection-query.js';
import {
  EncodedPayload,
  parseRemoteMessage,
  parseRpcAnswer,
  parseRpcRequest,
  rpcAnswerJson,
  rpcAnswerPayload,
  rpcRequestPayload,
} from '../../../src/p2p/envelopes.js';
import { P2pProtocolError } from '../../../src/p2p/errors.js';
import { decodeNodeInfo, emptyNodeInfoOptions, encodeNodeInfo, incompatibility, type NodeInfo } from '../../../src/p2p/node-info.js';
import {
  getHighestCommonBlockResponseSchema,
  getPeersResponseSchema,
  peerInfoSchema,
  postBlockSchema,
  singleCommitSchema,
  singleCommitsMessageSchema,
} from '../../../src/p2p/schemas.js';
import {
  answerFrame,
  answerFrameBytes,
  clientFrameProblem,
  disconnectFrame,
  errorFrame,
  eventFrame,
  parseFrame,
} from '../../../src/p2p/socketcluster.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const ascii = (text: string): string => Buffer.from(text).toString('hex');
const lastBlockID = hex('8f44e0466fa0f07ad7cb1bab934cdca5d1317c9f2f883a9ac735ee32ae06f993');

const ours: NodeInfo = {
  chainID: hex('04000002'),
  networkVersion: '1.0',
  nonce: '959b5b957851943e',
  advertiseAddress: true,
  options: { height: 42, maxHeightPrevoted: 38, blockVersion: 2, lastBlockID, legacy: [] },
};

describe('node info', () => {
  it('encodes like a lisk-sdk 6.1 generator (empty legacy list omitted)', () => {
    const expected = hex(
      `0a04 04000002 1203 ${ascii('1.0')} 1a10 ${ascii('959b5b957851943e')} 2001 2a28 082a 1026 1802 2220 ${lastBlockID.toString('hex')}`,
    );
    expect(encodeNodeInfo(ours)).toEqual(expected);
    expect(decodeNodeInfo(expected)).toEqual(ours);
  });

  it('encodes a fresh node: all options zero, lastBlockID empty, advertiseAddress false still written', () => {
    const fresh = encodeNodeInfo({ ...ours, advertiseAddress: false, options: emptyNodeInfoOptions() });
    expect(fresh.subarray(-12).toString('hex')).toBe('20002a080800100018002200');
  });

  it('keeps legacy snapshot IDs at options field 5', () => {
    const info = { ...ours, options: { ...ours.options, legacy: [lastBlockID] } };
    expect(decodeNodeInfo(encodeNodeInfo(info)).options.legacy).toEqual([lastBlockID]);
  });

  it('refuses node info that is oversized, undecodable or missing', () => {
    expect(() => decodeNodeInfo(Buffer.alloc(20_481))).toThrow(P2pProtocolError);
    expect(() => decodeNodeInfo(hex('0a0404000002'))).toThrow(P2pProtocolError);
    expect(() => decodeNodeInfo(undefined)).toThrow(P2pProtocolError);
  });

  it('accepts a peer with the same chain and major version only', () => {
    expect(incompatibility({ chainID: hex('04000002'), networkVersion: '1.7' }, ours)).toBeUndefined();
    expect(incompatibility({ chainID: hex('04000000'), networkVersion: '1.0' }, ours)).toBe('Peer chainID did not match our own');
    expect(incompatibility({ chainID: hex('04000002'), networkVersion: '2.0' }, ours)).toBe('Peer has incompatible protocol version');
    expect(incompatibility({ chainID: hex('04000002'), networkVersion: '0.0' }, { ...ours, networkVersion: '0.1' })).toBe(
      'Peer has incompatible protocol version',
    );
    expect(incompatibility({ chainID: hex('04000002'), networkVersion: undefined }, ours)).toBe('Peer has incompatible protocol version');
  });
});

describe('payload schemas', () => {
  it('getPeers answer: a list of encoded {ipAddress, port}', () => {
    const entry = codec.encode(peerInfoSchema, { ipAddress: '127.0.0.1', port: 17668 });
    expect(codec.encode(getPeersResponseSchema, { peers: [entry] })).toEqual(hex(`0a0f 0a09 ${ascii('127.0.0.1')} 10848a01`));
    expect(codec.encode(getPeersResponseSchema, { peers: [] })).toEqual(Buffer.alloc(0));
  });

  it('getHighestCommonBlock answer without a common block is 0a00', () => {
    expect(codec.encode(getHighestCommonBlockResponseSchema, { id: Buffer.alloc(0) })).toEqual(hex('0a00'));
  });

  it('postBlock wraps the block bytes at field 1; single commits nest encoded commits', () => {
    expect(codec.encode(postBlockSchema, { block: hex('0102') })).toEqual(hex('0a020102'));
    const commit = codec.encode(singleCommitSchema, {
      blockID: lastBlockID,
      height: 7,
      validatorAddress: Buffer.alloc(20, 1),
      certificateSignature: Buffer.alloc(96, 2),
    });
    const packet = codec.decode<{ commits: Buffer[] }>(
      singleCommitsMessageSchema,
      codec.encode(singleCommitsMessageSchema, { commits: [commit] }),
    );
    expect(codec.decode<{ height: number }>(singleCommitSchema, packet.commits[0]!).height).toBe(7);
  });
});

describe('socketcluster frames', () => {
  it('serialises events, answers, errors and #disconnect the way socketcluster does', () => {
    expect(eventFrame('#handshake', { authToken: null }, 1)).toBe('{"event":"#handshake","data":{"authToken":null},"cid":1}');
    expect(eventFrame('remote-message', { event: 'postBlock', data: 'AQ==' })).toBe(
      '{"event":"remote-message","data":{"event":"postBlock","data":"AQ=="}}',
    );
    expect(answerFrame(3, undefined)).toBe('{"rid":3}');
    expect(answerFrame(3, { data: '', peerId: '127.0.0.1:17668' })).toBe('{"rid":3,"data":{"data":"","peerId":"127.0.0.1:17668"}}');
    expect(errorFrame(8, 'no')).toBe('{"rid":8,"error":{"message":"no"}}');
    expect(disconnectFrame(1000, 'bye')).toBe('{"event":"#disconnect","data":{"code":1000,"data":"bye"}}');
    expect(disconnectFrame(1000, undefined)).toBe('{"event":"#disconnect","data":{"code":1000}}');
  });

  it('parses pings, events and answers; other JSON is "other"', () => {
    expect(parseFrame('#1')).toEqual({ kind: 'ping' });
    expect(parseFrame('#2')).toEqual({ kind: 'pong' });
    expect(parseFrame('{"event":"x","data":{},"cid":4}')).toEqual({ kind: 'event', event: 'x', data: {}, cid: 4 });
    expect(parseFrame('{"rid":4,"error":{"message":"m"}}')).toEqual({ kind: 'answer', rid: 4, data: undefined, error: { message: 'm' } });
    expect(parseFrame('[{"event":"x"}]')).toEqual({ kind: 'other' });
    expect(() => parseFrame('#3')).toThrow(P2pProtocolError);
  });

  it('filters client frames like a Lisk server: only known keys with the right types, no channel or auth events', () => {
    for (const ok of [
      '#2',
      '{"event":"#handshake","data":{"authToken":null},"cid":1}',
      '{"rid":1,"data":{"data":"InBvbmci","peerId":"a"}}',
      '{}',
    ]) {
      expect(clientFrameProblem(ok)).toBeUndefined();
    }
    const bad = [
      '#1',
      'hello',
      '[]',
      'null',
      '{"event":"x","extra":1}',
      '{"event":1}',
      '{"cid":1.5}',
      '{"event":"x","data":"text"}',
      '{"event":"x","data":null}',
      '{"event":"x","data":[]}',
      '{"rid":1,"error":"text"}',
      '{"event":"#subscribe","data":{}}',
      '{"event":"#publish"}',
      `{"event":"${'e'.repeat(129)}"}`,
    ];
    for (const frame of bad) expect(clientFrameProblem(frame), frame).toBeDefined();
  });
});

describe('lisk-p2p envelopes', () => {
  it('rpc-request: exactly {procedure, data?} with string values', () => {
    expect(rpcRequestPayload('getLastBlock')).toEqual({ procedure: 'getLastBlock' });
    expect(rpcRequestPayload('getBlocksFromId', hex('0a20'))).toEqual({ procedure: 'getBlocksFromId', data: 'CiA=' });
    expect(parseRpcRequest({ procedure: 'getLastBlock' })).toEqual({ procedure: 'getLastBlock', data: undefined });
    expect(parseRpcRequest({ procedure: 'x', data: '' })).toEqual({ procedure: 'x', data: Buffer.alloc(0) });
    for (const bad of [{ procedure: 1 }, { procedure: 'x', data: 5 }, { procedure: 'x', extra: true }, {}, 'x', null]) {
      expect(parseRpcRequest(bad)).toBeUndefined();
    }
  });

  it('remote-message: exactly {event, data?}', () => {
    expect(parseRemoteMessage({ event: 'postBlock', data: 'AQI=' })).toEqual({ event: 'postBlock', data: hex('0102') });
    expect(parseRemoteMessage({ event: 'postBlock', procedure: 'x' })).toBeUndefined();
  });

  it('answers: data omitted for nothing, "" for an empty payload; the latency pong is base64 of "pong" in JSON', () => {
    expect(rpcAnswerPayload(undefined, 'p')).toEqual({ peerId: 'p' });
    expect(rpcAnswerPayload(Buffer.alloc(0), 'p')).toEqual({ data: '', peerId: 'p' });
    expect(rpcAnswerPayload(Buffer.from(JSON.stringify('pong')), 'p').data).toBe('InBvbmci');
    expect(parseRpcAnswer({ data: 'InBvbmci', peerId: 'p' })).toEqual({ data: Buffer.from('"pong"'), peerId: 'p' });
    expect(parseRpcAnswer({ data: 1 })).toBeUndefined();
  });

  it('an answer kept in base64 is framed into the bytes JSON.stringify gives, with the base64 copied once', () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('0a03010203', 'hex'), randomBytes(300_001)]) {
      const payload = new EncodedPayload(bytes.toString('base64'));
      for (const [rid, peerId] of [
        [1, '127.0.0.1:7667'],
        [4_294_967_296, '[::1]:7667'],
      ] as const) {
        const frame = answerFrameBytes(rid, rpcAnswerJson(payload, peerId));
        expect(frame.toString('utf8')).toBe(answerFrame(rid, rpcAnswerPayload(payload, peerId)));
        expect(frame.toString('utf8')).toBe(answerFrame(rid, rpcAnswerPayload(bytes, peerId)));
      }
    }
  });
});

describe('connection URL and admission', () => {
  const url = connectionUrl('127.0.0.1', 17667, {
    networkVersion: '1.0',
    chainID: hex('04000002'),
    nonce: 'ce4064f9733cca1f',
    advertiseAddress: true,
    port: 17668,
  });

  it('carries our identity in the query, keys in lisk-p2p order', () => {
    expect(url).toBe(
      'ws://127.0.0.1:17667/rpc/?networkVersion=1.0&chainID=04000002&nonce=ce4064f9733cca1f&advertiseAddress=true&port=17668',
    );
    expect(parseConnectionQuery('/rpc/?a=1&a=2&b=3')).toEqual({ a: ['1', '2'], b: '3' });
  });

  const path = url.slice(url.indexOf('/rpc/'));
  const admit = (requestUrl: string | undefined, remote = '127.0.0.2') => admitInbound(requestUrl, remote, ours, 7667);

  it('admits a compatible peer under the ID ip:claimedPort', () => {
    expect(admit(path)).toEqual({
      admitted: true,
      claims: {
        peerId: '127.0.0.2:17668',
        ipAddress: '127.0.0.2',
        port: 17668,
        chainID: hex('04000002'),
        networkVersion: '1.0',
        nonce: 'ce4064f9733cca1f',
        advertiseAddress: true,
      },
    });
  });

  it('refuses with lisk-p2p close codes and reasons, in its order', () => {
    const refused = (requestUrl: string | undefined, remote?: string) => {
      const result = admit(requestUrl, remote);
      return result.admitted ? undefined : [result.code, result.reason];
    };
    expect(refused(undefined)).toEqual([4501, 'Peer did not provide a valid URL as part of the WebSocket connection']);
    expect(refused(path.replace('ce4064f9733cca1f', ours.nonce))).toEqual([4101, 'Peer cannot connect to itself']);
    expect(admit(path.replace('ce4064f9733cca1f', ours.nonce))).toMatchObject({ selfPeerId: '127.0.0.2:17668' });
    expect(refused(path.replace('chainID=04000002&', ''))).toEqual([
      4502,
      'Peer did not provide valid query parameters as part of the WebSocket connection',
    ]);
    expect(refused(`${path}&chainID=04000002`)).toEqual([
      4502,
      'Peer did not provide valid query parameters as part of the WebSocket connection',
    ]);
    expect(refused(path.replace('port=17668', 'port=x'))?.[0]).toBe(4105);
    expect(refused(path, '::1')?.[0]).toBe(4105);
    expect(refused(`${path}&pad=${'x'.repeat(20_480)}`)).toEqual([4105, 'PeerInfo is larger than the maximum allowed size 20480 bytes']);
    expect(refused(path.replace('04000002', '04000000'))).toEqual([4104, 'Peer chainID did not match our own']);
    expect(refused(path.replace('networkVersion=1.0', 'networkVersion=2.0'))).toEqual([4104, 'Peer has incompatible protocol version']);
  });

  it('reads advertiseAddress as true unless it is exactly "false"', () => {
    const hidden = admit(path.replace('advertiseAddress=true', 'advertiseAddress=false'));
    expect(hidden.admitted && hidden.claims.advertiseAddress).toBe(false);
    const odd = admit(path.replace('advertiseAddress=true', 'advertiseAddress=no'));
    expect(odd.admitted && odd.claims.advertiseAddress).toBe(true);
  });
});
