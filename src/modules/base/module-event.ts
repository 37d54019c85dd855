import { codec, type Schema } from '../../codec/index.js';
import type { EventQueue } from './event-queue.js';

/**
 * An event type a module emits: its name, data schema and how to add one (lisk-sdk BaseEvent).
 * `emit` is a method, so its `data: T` parameter is compared bivariantly and any
 * `ModuleEvent<SomeData>` can be listed in a module's `events` as a `ModuleEvent<object>`.
 */
export class ModuleEvent<T extends object> {
  constructor(
    readonly moduleName: string,
    readonly name: string,
    readonly schema: Schema,
  ) {}

  emit(events: EventQueue, data: T, topics: readonly Buffer[] = [], noRevert = false): void {
    events.add(this.moduleName, this.name, codec.encode(this.schema, data), topics, noRevert);
  }
}
