/**
 * Peer policy without sockets: rate limits, the peer book (buckets, tried/new moves, bans,
 * trust), the configured lists and their DNS resolution, and peer selection.
 */
import { describe, expect, it } from 'vitest';
import { ENGINE_RATE_LIMITS, ReceivedRateCounter, SentRateBudget } from '../../../src/p2p/rate-limits.js';
import { PeerBook } from '../../../src/p2p/peer-book.js';
import { bucketOf, BucketList, netgroupOf } from '../../../src/p2p/peer-buckets.js';
import { resolveSeedPeers, sanitizePeerLists, type PeerLists } from '../../../src/p2p/peer-lists.js';
import { selectPeersForConnection } from '../../../src/p2p/peer-selection.js';
import { normaliseAddress, networkClassOf } from '../../../src/p2p/peer-address.js';
import { p2pOptionsFromConfig } from '../../../src/p2p/network-options.js';

const peer = (ipAddress: string, port = 7667) => ({ ipAddress, port });
const noLists: PeerLists = { seedPeers: [], fixedPeers: [], whitelistedPeers: [], previousPeers: [], blacklistedIPs: [] };

describe('rate limits', () => {
  it('has lisk-sdk 6.1 per-peer limits per 10 s', () => {
    expect(ENGINE_RATE_LIMITS).toMatchObject({
      getLastBlock: 10,
      getHighestCommonBlock: 10,
      getBlocksFromId: 100,
      getTransactions: 3,
      postTransactionsAnnouncement: 3,
      postSingleCommitMessages: 10,
    });
  });

  it('received: counts per name and peer in a fixed window, every call beyond the limit exceeds', () => {
    const counter = new ReceivedRateCounter(10_000, 0);
    const results = Array.from({ length: 5 }, () => counter.exceeds('getTransactions', 'a:1', 3, 1_000));
    expect(results).toEqual([false, false, false, true, true]);
    expect(counter.exceeds('getTransactions', 'b:1', 3, 1_000)).toBe(false);
    expect(counter.exceeds('getTransactions', 'a:1', 3, 10_000)).toBe(false); // new window
  });

  it('sent: a sliding window keeps any 10 s span within the limit', () => {
    const budget = new SentRateBudget(10_000);
    expect([0, 1, 2, 3, 4].map((t) => budget.take('postNodeInfo', 'p', 4, t * 1000))).toEqual([true, true, true, true, false]);
    expect(budget.waitFor('postNodeInfo', 'p', 4, 4_000)).toBe(6_000);
    expect(budget.take('postNodeInfo', 'p', 4, 10_000)).toBe(true);
    budget.forget('p');
    expect(budget.waitFor('postNodeInfo', 'p', 4, 10_000)).toBe(0);
  });
});

describe('peer addresses and buckets', () => {
  it('normalises IPv4-mapped IPv6 and classifies addresses the way lisk-p2p does', () => {
    expect(normaliseAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(normaliseAddress('::1')).toBe('::1');
    expect([networkClassOf('127.0.0.5'), networkClassOf('0.0.0.0'), networkClassOf('10.1.1.1'), networkClassOf('172.20.0.1')]).toEqual([
      2, 2, 1, 1,
    ]);
    expect([networkClassOf('192.168.1.1'), networkClassOf('8.8.8.8')]).toEqual([0, 0]);
  });

  it('puts every loopback address in one bucket and spreads public ones by a keyed hash', () => {
    expect(bucketOf('tried', 1, 64, '127.0.0.2')).toBe(bucketOf('tried', 1, 64, '127.0.0.99'));
    const buckets = new Set(Array.from({ length: 64 }, (_, i) => bucketOf('tried', 7, 64, `${i + 1}.2.3.4`)));
    expect(buckets.size).toBeGreaterThan(20);
    expect(bucketOf('new', 7, 128, '8.8.8.8', '1.1.1.1')).not.toBe(bucketOf('new', 8, 128, '8.8.8.8', '1.1.1.1'));
    expect(netgroupOf('8.8.1.1', 3)).toBe(netgroupOf('8.8.200.9', 3));
  });

  it('a full bucket evicts to make room (new list: expired entries first)', () => {
    const list = new BucketList('new', 1, 1, 2);
    const entry = (port: number, dateAdded: number) => ({
      peerId: `127.0.0.1:${port}`,
      ipAddress: '127.0.0.1',
      port,
      advertiseAddress: true,
      dateAdded,
      failures: 0,
    });
    list.add(entry(1, 0), 0);
    list.add(entry(2, 86_400_000), 86_400_000);
    expect(list.add(entry(3, 86_400_001), 86_400_001)?.port).toBe(1);
    expect(list.size).toBe(2);
  });
});

describe('peer book', () => {
  it('starts fixed, whitelisted and previous peers in the tried list; seeds stay outside', () => {
    const book = new PeerBook(
      {
        ...noLists,
        seedPeers: [peer('10.0.0.1')],
        fixedPeers: [peer('10.0.0.2')],
        whitelistedPeers: [peer('10.0.0.3')],
        previousPeers: [peer('10.0.0.4')],
      },
      1,
    );
    expect(book.triedPeers.map((p) => p.ipAddress).sort()).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4']);
    expect(book.newPeers).toEqual([]);
    expect(book.trustOf('10.0.0.1', 7667)).toBe('seed');
    expect(book.trustOf('10.0.0.2', 7667)).toBe('fixed');
    expect(book.trustOf('10.0.0.2', 1)).toBe('none');
    expect(book.trustOf('10.0.0.2', 1, false)).toBe('fixed');
  });

  it('moves a connected peer to tried; a failing new entry is dropped, a tried one after 3 failures goes back to new', () => {
    const book = new PeerBook(noLists, 1);
    expect(book.addPeer({ ...peer('8.8.8.8'), sourceAddress: '1.1.1.1' })).toBe(true);
    expect(book.addPeer(peer('8.8.8.8'))).toBe(false);
    book.downgradePeer(peer('8.8.8.8'));
    expect(book.hasPeer('8.8.8.8:7667')).toBe(false);
    book.addPeer(peer('9.9.9.9'));
    expect(book.upgradePeer(peer('9.9.9.9'))).toBe(true);
    book.downgradePeer(peer('9.9.9.9'));
    book.downgradePeer(peer('9.9.9.9'));
    expect(book.triedPeers.map((p) => p.peerId)).toEqual(['9.9.9.9:7667']);
    book.downgradePeer(peer('9.9.9.9'));
    expect(book.triedPeers).toEqual([]);
    expect(book.newPeers.map((p) => p.peerId)).toEqual(['9.9.9.9:7667']);
  });

  it('bans by IP for a time and forgets that IP; fixed and whitelisted peers are never banned, blacklisted IPs always', () => {
    const book = new PeerBook(
      { ...noLists, fixedPeers: [peer('10.0.0.2')], whitelistedPeers: [peer('10.0.0.3')], blacklistedIPs: ['10.0.0.9'] },
      1,
    );
    book.addPeer(peer('8.8.8.8', 1));
    book.addPeer(peer('8.8.8.8', 2));
    expect(book.ban(peer('8.8.8.8', 1), 1_000, 0)).toBe(true);
    expect(book.allPeers.filter((p) => p.ipAddress === '8.8.8.8')).toEqual([]);
    expect(book.isBanned('8.8.8.8', 999)).toBe(true);
    expect(book.addPeer(peer('8.8.8.8', 3), 500)).toBe(false);
    expect(book.isBanned('8.8.8.8', 1_000)).toBe(false);
    expect(book.ban(peer('10.0.0.2'))).toBe(false);
    expect(book.ban(peer('10.0.0.3'))).toBe(false);
    expect(book.isBanned('10.0.0.9')).toBe(true);
    expect(book.bannedIPs()).toEqual(['10.0.0.9']);
  });

  it('samples between a quarter and a half of the book for getPeers, at least min(100, size)', () => {
    const book = new PeerBook(noLists, 1);
    for (let i = 0; i < 300; i += 1) book.addPeer(peer(`${10 + (i % 200)}.${i}.1.1`));
    const size = book.allPeers.length;
    for (let round = 0; round < 5; round += 1) {
      const count = book.randomSample(100, 200).length;
      expect(count).toBeGreaterThanOrEqual(Math.max(100, Math.ceil(size / 4)));
      expect(count).toBeLessThanOrEqual(Math.max(100, Math.floor(size / 2)));
    }
    const small = new PeerBook(noLists, 1);
    small.addPeer(peer('8.8.8.8'));
    expect(small.randomSample(100, 200)).toHaveLength(1);
  });
});

describe('configured lists', () => {
  it('keeps IPv4 only, never our own host or a blacklisted IP, each address in one list (fixed > seed > whitelisted > previous)', () => {
    const lists = sanitizePeerLists(
      {
        fixedPeers: [peer('10.0.0.1'), peer('127.0.0.2'), peer('10.0.0.9')],
        seedPeers: [peer('10.0.0.1'), peer('10.0.0.5'), peer('seed.example.org')],
        whitelistedPeers: [peer('10.0.0.5'), peer('10.0.0.6')],
        previousPeers: [peer('10.0.0.6'), peer('10.0.0.7')],
        blacklistedIPs: ['10.0.0.9', '127.0.0.2'],
      },
      '127.0.0.2',
    );
    expect(lists).toEqual({
      fixedPeers: [peer('10.0.0.1')],
      seedPeers: [peer('10.0.0.5')],
      whitelistedPeers: [peer('10.0.0.6')],
      previousPeers: [peer('10.0.0.7')],
      blacklistedIPs: ['10.0.0.9'],
    });
    expect(sanitizePeerLists({ ...noLists, seedPeers: [peer('0.0.0.0')] }, undefined).seedPeers).toEqual([]);
  });

  it('resolves seed host names to IPv4 once; names that fail stay unresolved', async () => {
    const lookup = async (name: string): Promise<string> => {
      if (name === 'seed.example.org') return '10.1.2.3';
      throw new Error('ENOTFOUND');
    };
    const result = await resolveSeedPeers(
      [
        { ip: 'seed.example.org', port: 7667 },
        { ip: '10.0.0.1', port: 7667 },
        { ip: 'gone.example.org', port: 7667 },
      ],
      lookup,
    );
    expect(result.peers).toEqual([
      { ip: '10.1.2.3', port: 7667 },
      { ip: '10.0.0.1', port: 7667 },
      { ip: 'gone.example.org', port: 7667 },
    ]);
    expect(result.unresolved).toEqual(['gone.example.org']);
  });

  it('resolves "localhost" with the system resolver', async () => {
    const { peers } = await resolveSeedPeers([{ ip: 'localhost', port: 1 }]);
    expect(peers[0]!.ip).toMatch(/^127\./);
  });
});

describe('options from a lisk-sdk 6.1 network config', () => {
  it('maps network.* to the network options, resolving seed host names', async () => {
    const lookup = async (): Promise<string> => '10.1.2.3';
    const { options, unresolved } = await p2pOptionsFromConfig(
      {
        version: '5.0',
        port: 7667,
        host: '127.0.0.2',
        seedPeers: [{ ip: 'seed.example.org', port: 7667 }],
        fixedPeers: [{ ip: '10.0.0.2', port: 7668 }],
        whitelistedPeers: [{ ip: '10.0.0.3', port: 7669 }],
        blacklistedIPs: ['10.0.0.9'],
        maxOutboundConnections: 5,
        maxInboundConnections: 0,
        wsMaxPayload: 1_000_000,
        advertiseAddress: false,
      },
      Buffer.from('04000000', 'hex'),
      {},
      lookup,
    );
    expect(unresolved).toEqual([]);
    expect(options).toMatchObject({
      networkVersion: '5.0',
      port: 7667,
      host: '127.0.0.2',
      seedPeers: [{ ipAddress: '10.1.2.3', port: 7667 }],
      fixedPeers: [{ ipAddress: '10.0.0.2', port: 7668 }],
      whitelistedPeers: [{ ipAddress: '10.0.0.3', port: 7669 }],
      blacklistedIPs: ['10.0.0.9'],
      maxOutboundConnections: 5,
      maxInboundConnections: 0,
      wsMaxPayload: 1_000_000,
      advertiseAddress: false,
    });
    const minimal = await p2pOptionsFromConfig({ version: '1.0', port: 7667, seedPeers: [] }, Buffer.from('04000000', 'hex'));
    expect(minimal.options).not.toHaveProperty('host');
    expect(minimal.options).not.toHaveProperty('advertiseAddress');
  });
});

describe('selection of new connections', () => {
  const entries = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      peerId: `${prefix}.${i}.1:1`,
      ipAddress: `${prefix}.${i}.1`,
      port: 1,
      advertiseAddress: true,
      dateAdded: 0,
      failures: 0,
    }));

  it('takes everything that fits, one peer per IP', () => {
    const tried = entries('10.0', 2);
    const fresh = [...entries('10.1', 2), { ...tried[0]!, peerId: `${tried[0]!.ipAddress}:2`, port: 2 }];
    expect(selectPeersForConnection(fresh, tried, 20)).toHaveLength(4);
  });

  it('picks at most the free slots, mixing tried and new peers', () => {
    const picks = selectPeersForConnection(entries('10.1', 50), entries('10.0', 50), 10);
    expect(picks).toHaveLength(10);
    expect(selectPeersForConnection(entries('10.1', 5), [], 0)).toEqual([]);
  });
});
