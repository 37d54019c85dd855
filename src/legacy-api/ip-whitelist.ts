/**
 * Lisk Core 1.x/2.x whitelist semantics (cli_migration.md §6.3): an entry is an IPv4 host (/32),
 * an IPv6 host (/128) or a CIDR block; invalid entries are reported and skipped; a missing, empty
 * or non-array list allows nobody. node:net's BlockList does the matching, and it also matches
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) against IPv4 rules, which Core left unsettled.
 */
import { BlockList, isIP } from 'node:net';

export interface IpWhitelist {
  allows(ip: string): boolean;
  /** The entries that were used, as written. */
  readonly entries: readonly string[];
  /** Entries that are not an address or a CIDR block (skipped, as Core skips them). */
  readonly invalid: readonly string[];
}

const family = (ip: string): 'ipv4' | 'ipv6' | undefined => {
  const version = isIP(ip);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
};

function addEntry(list: BlockList, entry: string): boolean {
  const slash = entry.indexOf('/');
  const host = slash === -1 ? entry : entry.slice(0, slash);
  const kind = family(host);
  if (kind === undefined) return false;
  if (slash === -1) {
    list.addAddress(host, kind);
    return true;
  }
  const bitsText = entry.slice(slash + 1);
  const bits = Number(bitsText);
  const maxBits = kind === 'ipv4' ? 32 : 128;
  if (!/^\d{1,3}$/.test(bitsText) || bits > maxBits) return false;
  list.addSubnet(host, bits, kind);
  return true;
}

/** A whitelist from a config value; anything but an array of strings yields an empty list. */
export function buildIpWhitelist(value: unknown): IpWhitelist {
  const list = new BlockList();
  const entries: string[] = [];
  const invalid: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const entry = typeof item === 'string' ? item.trim() : '';
      if (entry !== '' && addEntry(list, entry)) entries.push(entry);
      else invalid.push(String(item));
    }
  }
  return {
    entries,
    invalid,
    allows: ip => {
      const kind = family(ip);
      return entries.length > 0 && kind !== undefined && list.check(ip, kind);
    },
  };
}

const LOOPBACK = buildIpWhitelist(['127.0.0.1', '::1']);

/**
 * Callers on this machine need no whitelist entry (issue 8). Only 127.0.0.1 and ::1 count, not
 * all of 127.0.0.0/8, so another loopback address can stand in for a remote caller in tests.
 */
export function isLocalAddress(ip: string): boolean {
  return LOOPBACK.allows(ip);
}
