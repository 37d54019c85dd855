/** Whitelists of the legacy forging API plus Basalt's loopback rule. */
import { describe, expect, it } from 'vitest';
import { allowedBy, normalizeAddress, parseWhitelist } from '../../../src/legacy-api/whitelist.js';

describe('parseWhitelist', () => {
  it('matches hosts as /32 or /128 and CIDR ranges', () => {
    const list = parseWhitelist(['10.1.2.3', '192.168.0.0/16', '2001:db8::1', 'fd00::/8']);
    expect(list.skipped).toEqual([]);
    expect(list.allows('10.1.2.3')).toBe(true);
    expect(list.allows('10.1.2.4')).toBe(false);
    expect(list.allows('192.168.200.1')).toBe(true);
    expect(list.allows('2001:db8::1')).toBe(true);
    expect(list.allows('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(list.allows('2001:db8::2')).toBe(false);
    expect(list.allows('fdab::1')).toBe(true);
    expect(list.allows('not an address')).toBe(false);
  });

  it('skips invalid entries and keeps the valid ones', () => {
    const list = parseWhitelist(['10.0.0.1', 'example.com', '10.0.0.0/33', '1.2.3.4/', 7, '1.2.3.0/24/1']);
    expect(list.skipped).toEqual(['example.com', '10.0.0.0/33', '1.2.3.4/', '7', '1.2.3.0/24/1']);
    expect(list.allows('10.0.0.1')).toBe(true);
  });

  it('denies everyone for an empty, non-array or all-invalid list', () => {
    for (const entries of [[], undefined, '10.0.0.1', { a: 1 }, ['nonsense']]) {
      expect(parseWhitelist(entries).allows('10.0.0.1')).toBe(false);
    }
  });

  it('matches IPv4-mapped IPv6 peers against IPv4 entries', () => {
    const list = parseWhitelist(['10.1.2.3']);
    expect(list.allows('::ffff:10.1.2.3')).toBe(true);
    expect(list.allows('0000:0000:0000:0000:0000:ffff:0a01:0203')).toBe(true);
    expect(normalizeAddress('::FFFF:7F00:0001')).toBe('127.0.0.1');
  });
});

describe('allowedBy', () => {
  it('always lets loopback callers in, even with a deny-all list', () => {
    const denyAll = parseWhitelist([]);
    for (const local of ['127.0.0.1', '127.5.6.7', '::1', '0000:0000:0000:0000:0000:0000:0000:0001', '::ffff:127.0.0.1']) {
      expect(allowedBy(denyAll, local)).toBe(true);
    }
    expect(allowedBy(denyAll, '10.0.0.1')).toBe(false);
    expect(allowedBy(parseWhitelist(['10.0.0.0/8']), '10.0.0.1')).toBe(true);
  });
});
