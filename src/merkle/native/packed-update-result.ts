import type { SmtNodeWrite, SmtUpdateResult } from '../smt/index.js';

const HASH_LENGTH = 32;

/**
 * The result of a native SMT update (same contract as SmtUpdateResult), kept in the flat buffers
 * the addon returned. A batch of 10,000 updates into a large tree writes and removes some
 * 200,000 nodes, and creating a Buffer view for each costs more than the whole native update, so
 * `writes` and `removed` are built on first read (then kept). Callers that can work on the flat
 * form (`writeHashes`, `writeData`, `writeEnds`, `removedHashes`) never pay for them.
 *
 * `writes` and `removed` are own enumerable properties (getters), so destructuring and object
 * spread see them like plain fields.
 */
export class PackedSmtUpdateResult implements SmtUpdateResult {
  declare readonly writes: readonly SmtNodeWrite[];
  declare readonly removed: readonly Buffer[];

  constructor(
    readonly root: Buffer,
    /** Hash of write i: bytes [32i, 32i + 32). */
    readonly writeHashes: Buffer,
    /** Data of write i: bytes [writeEnds[i − 1], writeEnds[i]) (from 0 for the first). */
    readonly writeData: Buffer,
    readonly writeEnds: Uint32Array,
    /** Removed hash j: bytes [32j, 32j + 32). */
    readonly removedHashes: Buffer,
  ) {
    let writes: SmtNodeWrite[] | undefined;
    let removed: Buffer[] | undefined;
    Object.defineProperty(this, 'writes', {
      enumerable: true,
      get: () => (writes ??= this.buildWrites()),
    });
    Object.defineProperty(this, 'removed', {
      enumerable: true,
      get: () => (removed ??= splitHashes(this.removedHashes)),
    });
  }

  /** Number of nodes written. */
  get writeCount(): number {
    return this.writeEnds.length;
  }

  /** Number of nodes removed. */
  get removedCount(): number {
    return this.removedHashes.length / HASH_LENGTH;
  }

  private buildWrites(): SmtNodeWrite[] {
    const { writeHashes, writeData, writeEnds } = this;
    const writes = new Array<SmtNodeWrite>(writeEnds.length);
    let start = 0;
    for (let i = 0; i < writeEnds.length; i += 1) {
      const end = writeEnds[i] as number;
      writes[i] = {
        hash: writeHashes.subarray(i * HASH_LENGTH, (i + 1) * HASH_LENGTH),
        data: writeData.subarray(start, end),
      };
      start = end;
    }
    return writes;
  }
}

/** 32-byte views of consecutive hashes. */
export function splitHashes(hashes: Buffer): Buffer[] {
  const count = hashes.length / HASH_LENGTH;
  const views = new Array<Buffer>(count);
  for (let i = 0; i < count; i += 1) views[i] = hashes.subarray(i * HASH_LENGTH, (i + 1) * HASH_LENGTH);
  return views;
}
