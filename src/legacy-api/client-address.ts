/**
 * Who is asking. By default the TCP peer's address. With `legacyApi.trustedProxyHeader` (off by
 * default) a reverse proxy on this machine may name the real client: the header is honoured only
 * on connections from 127.0.0.1/::1, and its LAST comma-separated entry is taken, the one the
 * nearest proxy appended (earlier entries come from the client and may be forged). This mirrors
 * Core's Express `trustProxy` (cli_migration.md §6.3 "Client IP") in its safe form.
 */
import { isLocalAddress } from './ip-whitelist.js';

/** uWS gives the peer of an IPv4 connection on a dual-stack socket as ::ffff:a.b.c.d; keep it as it is (whitelists match it). */
export function clientAddress(peer: string, proxyHeaderValue: string | undefined): string {
  if (proxyHeaderValue === undefined || proxyHeaderValue === '' || !isLocalAddress(peer)) return peer;
  const entries = proxyHeaderValue.split(',');
  return (entries[entries.length - 1] as string).trim();
}
