/**
 * `GET /ready` on the RPC port, for load balancers in front of a fleet of followers: 200 when the
 * node serves the current chain, 503 while it syncs or when its tip is more slots behind the
 * clock than `rpc.readyMaxSlotsBehind` (a node cut off from its peers keeps answering, with old
 * data). The body says why, as JSON. No Lisk node has this endpoint.
 */
import type { HttpResponse } from 'uWebSockets.js';

export const READY_PATH = '/ready';

export interface ReadinessState {
  readonly syncing: boolean;
  readonly height: number;
  /** Slots between the tip's and the clock's. */
  readonly slotsBehind: number;
}

export interface ReadinessProbe {
  readonly state: () => ReadinessState;
  readonly maxSlotsBehind: number;
}

export function writeReadiness(res: HttpResponse, probe: ReadinessProbe, accessControlAllowOrigin: string): void {
  const state = probe.state();
  const ready = !state.syncing && state.slotsBehind <= probe.maxSlotsBehind;
  res.cork(() => {
    res
      .writeStatus(ready ? '200 OK' : '503 Service Unavailable')
      .writeHeader('Content-Type', 'application/json')
      .writeHeader('Cache-Control', 'no-store')
      .writeHeader('Access-Control-Allow-Origin', accessControlAllowOrigin)
      .end(JSON.stringify({ ready, ...state, maxSlotsBehind: probe.maxSlotsBehind }));
  });
}
