/**
 * Delivers the node's events (the ones RPC subscribers get) to plugin listeners. The engine must
 * never wait on or fail because of a plugin: listeners run synchronously in publication order,
 * and what they throw or reject with is logged and dropped.
 */
import type { Logger } from '../logger.js';
import { RawJson } from '../rpc/raw-json.js';
import type { NodeEventListener } from './plugin.js';

/** Listening to this name means every event. */
export const ALL_EVENTS = '*';

export class NodeEventBus {
  private readonly listeners = new Map<string, Set<NodeEventListener>>();

  constructor(private readonly logger: Logger) {}

  /** Adds `listener` for `event` (an exact name or `*`); returns the function that removes it. */
  subscribe(event: string, listener: NodeEventListener): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /**
   * Hands `data` (JSON-ready, or RawJson as the engine publishes blocks) to every listener of
   * `event` and of `*`. RawJson is parsed once, and only when someone listens.
   */
  notify(event: string, data: unknown): void {
    const exact = this.listeners.get(event);
    const all = this.listeners.get(ALL_EVENTS);
    if ((exact === undefined || exact.size === 0) && (all === undefined || all.size === 0)) return;
    let value: unknown;
    try {
      value = data instanceof RawJson ? JSON.parse(data.json) : data;
    } catch (error) {
      this.logger.error({ event, err: error }, 'Node event is not valid JSON; not delivered to plugins');
      return;
    }
    // Copies: a listener may unsubscribe (itself or another) while the event is delivered.
    if (exact !== undefined) for (const listener of [...exact]) this.call(listener, event, value);
    if (all !== undefined) for (const listener of [...all]) this.call(listener, event, value);
  }

  private call(listener: NodeEventListener, event: string, value: unknown): void {
    try {
      const result = listener(event, value);
      if (result instanceof Promise) result.catch((error) => this.logger.error({ event, err: error }, 'A plugin event listener failed'));
    } catch (error) {
      this.logger.error({ event, err: error }, 'A plugin event listener failed');
    }
  }
}
