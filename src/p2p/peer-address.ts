/**
 * IPv4 peer addresses: the only kind Lisk P2P uses (`elements/lisk-p2p/src/utils/network.ts`,
 * `utils/validate.ts`). A peer's ID is `"ip:port"`, where the port of an inbound peer is the one it
 * claims in its connection query, not its socket's source port.
 */
import { isIPv4 } from 'node:net';

export { isIPv4 };

export interface PeerAddress {
  ipAddress: string;
  port: number;
}

export function peerIdOf(ipAddress: string, port: number): string {
  return `${ipAddress}:${port}`;
}

/** A dual-stack socket reports IPv4 peers as `::ffff:a.b.c.d`; Lisk expects `a.b.c.d`. */
export function normaliseAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** A TCP port a peer may claim: an integer in 1..65535. */
export function isValidPort(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port <= 65_535;
}

/**
 * Address classes of the peer book's bucketing. lisk-p2p puts loopback (127/8) and 0.0.0.0 in
 * one class and 10/8 and 172.16/12 in another (192.168/16 counts as public there; kept as is).
 */
export const NetworkClass = { Public: 0, Private: 1, Local: 2 } as const;
export type NetworkClass = (typeof NetworkClass)[keyof typeof NetworkClass];

export function ipv4Octets(ipAddress: string): number[] {
  return ipAddress.split('.').map((part) => Number.parseInt(part, 10));
}

export function networkClassOf(ipAddress: string): NetworkClass {
  const [a, b] = ipv4Octets(ipAddress);
  if (a === 127 || ipAddress === '0.0.0.0') return NetworkClass.Local;
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31)) return NetworkClass.Private;
  return NetworkClass.Public;
}
