/** A point in a message's processing to roll its state writes and events back to (lisk-sdk createSnapshot/restoreSnapshot on both). */
import type { MethodContext } from '../../base/index.js';

export interface Snapshot {
  readonly events: number;
  readonly state: number;
}

export function snapshot(ctx: MethodContext): Snapshot {
  return { events: ctx.events.snapshot(), state: ctx.state.snapshot() };
}

/** Undoes every state write and event made since `to` was taken. */
export function restore(ctx: MethodContext, to: Snapshot): void {
  ctx.events.restore(to.events);
  ctx.state.restore(to.state);
}
