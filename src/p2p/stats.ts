/**
 * Network statistics in the shape lisk-p2p reports them (`elements/lisk-p2p/src/types.ts`
 * NetworkStats), which lisk-sdk's `network_getStats` endpoint returns as is.
 */
export interface P2pStats {
  startTime: number;
  incoming: { count: number; connects: number; disconnects: number };
  outgoing: { count: number; connects: number; disconnects: number };
  banning: { count: number; bannedPeers: Record<string, { banCount: number; lastBanTime: number }> };
  totalConnectedPeers: number;
  totalDisconnectedPeers: number;
  totalErrors: number;
  totalPeersDiscovered: number;
  totalRemovedPeers: number;
  totalMessagesReceived: Record<string, number>;
  totalRequestsReceived: Record<string, number>;
}

export function emptyStats(now = Date.now()): P2pStats {
  return {
    startTime: now,
    incoming: { count: 0, connects: 0, disconnects: 0 },
    outgoing: { count: 0, connects: 0, disconnects: 0 },
    banning: { count: 0, bannedPeers: {} },
    totalConnectedPeers: 0,
    totalDisconnectedPeers: 0,
    totalErrors: 0,
    totalPeersDiscovered: 0,
    totalRemovedPeers: 0,
    totalMessagesReceived: {},
    totalRequestsReceived: {},
  };
}
