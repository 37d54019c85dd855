import { codec, type Schema } from '../../codec/index.js';
import { NotFoundError } from '../../errors.js';
import { OverlayState } from '../../state/overlay-state.js';
import type { IterateOptions, StateReader, StateWriter } from '../../state/state-view.js';
import { computeStorePrefix, computeSubstorePrefix } from './store-prefix.js';

/**
 * `first ‖ second` as a new Buffer, without Buffer.concat's list handling: state keys are built
 * on every store access of every transaction.
 */
export function joinKey(first: Uint8Array, second: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(first.length + second.length);
  key.set(first, 0);
  key.set(second, first.length);
  return key;
}

/**
 * One substore of a module (lisk-sdk BaseStore): a key space under
 * `storePrefix(module) ‖ substorePrefix(index)` whose values are encoded with one schema.
 * Keys passed in and returned are relative to that prefix.
 *
 * `T` only appears in method parameters and results, and method parameters are compared
 * bivariantly, so every `ModuleStore<UserAccount>` is also a `ModuleStore<object>`: a module's
 * `stores` list (used for metadata: name, prefix, schema) needs no cast. Do not turn the methods
 * into function-valued properties; that would make `T` invariant.
 */
export class ModuleStore<T extends object> {
  readonly prefix: Buffer;

  constructor(
    readonly moduleName: string,
    /** The store's name in metadata, e.g. `userSubstore`. */
    readonly name: string,
    /** Position of the substore in lisk-sdk's registration order (decides the key prefix). */
    readonly index: number,
    readonly schema: Schema,
    /** Overrides the name-derived store prefix (the interoperability module has a fixed one). */
    storePrefix: Buffer = computeStorePrefix(moduleName),
  ) {
    this.prefix = Buffer.concat([storePrefix, computeSubstorePrefix(index)]);
  }

  stateKey(key: Buffer): Buffer {
    return joinKey(this.prefix, key);
  }

  get(state: StateReader, key: Buffer): T | undefined {
    const raw = state.get(this.stateKey(key));
    return raw === undefined ? undefined : codec.decode<T>(this.schema, raw);
  }

  /** Like `get`, for callers where absence is an error (lisk-sdk's BaseStore.get throws). */
  getOrThrow(state: StateReader, key: Buffer): T {
    const value = this.get(state, key);
    if (value === undefined) {
      throw new NotFoundError(`${this.moduleName} ${this.name}: key ${key.toString('hex')} does not exist`);
    }
    return value;
  }

  has(state: StateReader, key: Buffer): boolean {
    return state.has(this.stateKey(key));
  }

  set(state: StateWriter, key: Buffer, value: T): void {
    const stateKey = this.stateKey(key);
    const encoded = codec.encode(this.schema, value);
    // Both buffers are new and go nowhere else: an overlay may keep them without copying.
    if (state instanceof OverlayState) state.setOwned(stateKey, encoded);
    else state.set(stateKey, encoded);
  }

  del(state: StateWriter, key: Buffer): void {
    state.del(this.stateKey(key));
  }

  /** Inclusive range over relative keys; `gte`/`lte` default to the whole substore. */
  iterate(state: StateReader, options: Partial<IterateOptions> & { keyLength?: number } = {}): { key: Buffer; value: T }[] {
    return state
      .iterate(this.stateRange(options))
      .map(({ key, value }) => ({ key: key.subarray(this.prefix.length), value: codec.decode<T>(this.schema, value) }));
  }

  /**
   * `iterate` as a visit: each value is decoded just before it is visited and can be dropped
   * after. Over hundreds of thousands of entries (the genesis checks of a migrated state) the
   * decoded values then die young instead of all reaching V8's old generation together.
   */
  forEach(state: StateReader, options: Partial<IterateOptions> & { keyLength?: number }, visit: (key: Buffer, value: T) => void): void {
    for (const { key, value } of state.iterate(this.stateRange(options))) {
      visit(key.subarray(this.prefix.length), codec.decode<T>(this.schema, value));
    }
  }

  private stateRange(options: Partial<IterateOptions> & { keyLength?: number }): IterateOptions {
    const keyLength = options.keyLength ?? 0;
    const gte = this.stateKey(options.gte ?? Buffer.alloc(keyLength, 0));
    const lte = options.lte ? this.stateKey(options.lte) : Buffer.concat([this.prefix, Buffer.alloc(Math.max(keyLength, 64), 0xff)]);
    return { gte, lte, reverse: options.reverse, limit: options.limit };
  }
}
