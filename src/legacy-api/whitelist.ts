/**
 * Whitelists of the legacy forging API (docs/protocol/legacy-forging-api.md): entries are IPv4 or
 * IPv6 hosts (taken as /32 or /128) or CIDR ranges; invalid entries are skipped (and reported); an
 * empty or non-array list denies everyone. Basalt adds one rule: loopback callers (127.0.0.0/8,
 * ::1) are always let in, so a local operator needs no setup.
 */
import { BlockList, isIP } from 'node:net';

export interface Whitelist {
  allows(address: string): boolean;
  /** Entries that were not an address or a CIDR range (skipped, as Lisk does). */
  readonly skipped: readonly string[];
}

/**
 * An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a dual-stack socket reports an IPv4 peer)
 * becomes the IPv4 address, so that IPv4 entries match it.
 */
export function normalizeAddress(address: string): string {
  const text = address.trim().toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped && isIP(mapped[1] as string) === 4) return mapped[1] as string;
  const hexMapped =
    /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
  if (hexMapped) {
    const high = Number.parseInt(hexMapped[1] as string, 16);
    const low = Number.parseInt(hexMapped[2] as string, 16);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return text;
}

const LOOPBACK6 = new BlockList();
LOOPBACK6.addAddress('::1', 'ipv6');

export function isLoopback(address: string): boolean {
  const normalized = normalizeAddress(address);
  if (isIP(normalized) === 4) return normalized.startsWith('127.');
  if (isIP(normalized) === 6) return LOOPBACK6.check(normalized, 'ipv6');
  return false;
}

/** Parses whitelist entries. */
export function parseWhitelist(entries: unknown): Whitelist {
  const list = new BlockList();
  const skipped: string[] = [];
  let valid = 0;
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      if (typeof entry !== 'string') {
        skipped.push(String(entry));
        continue;
      }
      const [host, prefixText, extra] = entry.trim().split('/');
      const address = normalizeAddress(host ?? '');
      const family = isIP(address);
      const maxPrefix = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
      if (family === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix || prefixText === '') {
        skipped.push(entry);
        continue;
      }
      list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
      valid += 1;
    }
  }
  return {
    skipped,
    allows: (address: string): boolean => {
      if (valid === 0) return false;
      const normalized = normalizeAddress(address);
      const family = isIP(normalized);
      if (family === 0) return false;
      return list.check(normalized, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** The gate a request passes: loopback always, others by the list. */
export function allowedBy(list: Whitelist, address: string): boolean {
  return isLoopback(address) || list.allows(address);
}
