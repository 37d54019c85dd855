import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { NativeSmtNodeStore, type MemoryNodeStore } from '../merkle/native/index.js';
import type { InMemorySmtNodeStore } from '../merkle/index.js';

/**
 * The state tree's nodes in one file, written at a clean shutdown so that the next start adopts
 * the tree instead of rebuilding it from every stored value. The format is the native store's
 * (native/src/smt/snapshot.rs): a header (magic, stamp length, node count, records length), the
 * caller's stamp, the records (hash, data length as u32 little-endian, data) and a SHA-256 of
 * everything before it. The native store writes and reads it itself; the TypeScript store goes
 * through the functions below, so either can read a file the other wrote.
 */
const MAGIC = Buffer.from('BSMTSNP1');
const HEADER_LENGTH = 28;
const CHECKSUM_LENGTH = 32;
const RECORD_HEADER = 36;
const MAX_META_LENGTH = 1 << 16;
/** Output is gathered into writes of about this size. */
const WRITE_CHUNK = 1 << 20;

/** Where a data directory keeps its state tree snapshot: beside the LMDB environment. */
export function stateTreeSnapshotPath(dataPath: string): string {
  return `${dataPath}/state-tree.snapshot`;
}

/** Writes every node of `store` and `meta` to `path`: temporary file, fsync, rename. */
export function writeTreeSnapshot(store: MemoryNodeStore, path: string, meta: Uint8Array): void {
  if (store instanceof NativeSmtNodeStore) {
    store.writeSnapshot(path, meta);
    return;
  }
  writeScriptSnapshot(store, path, meta);
}

/**
 * Replaces the nodes of the empty `store` with those of the snapshot at `path` and returns its
 * stamp. Throws an Error saying why when the file is unreadable or not an intact snapshot.
 */
export function readTreeSnapshot(store: MemoryNodeStore, path: string): Buffer {
  if (store instanceof NativeSmtNodeStore) return store.readSnapshot(path);
  return readScriptSnapshot(store, path);
}

function writeScriptSnapshot(store: InMemorySmtNodeStore, path: string, meta: Uint8Array): void {
  if (meta.length > MAX_META_LENGTH) throw new RangeError('snapshot stamp too long');
  let recordsLength = 0;
  for (const { data } of store.entries()) recordsLength += RECORD_HEADER + data.length;
  const header = Buffer.alloc(HEADER_LENGTH);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(meta.length, 8);
  header.writeBigUInt64LE(BigInt(store.size), 12);
  header.writeBigUInt64LE(BigInt(recordsLength), 20);

  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    const checksum = createHash('sha256');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const emit = (bytes: Uint8Array): void => {
      checksum.update(bytes);
      pending.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      pendingBytes += bytes.length;
      if (pendingBytes >= WRITE_CHUNK) flush();
    };
    const flush = (): void => {
      writeSync(fd, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    };
    emit(header);
    emit(meta);
    const length = Buffer.alloc(4);
    for (const { hash, data } of store.entries()) {
      emit(hash);
      length.writeUInt32LE(data.length);
      emit(Buffer.from(length));
      emit(data);
    }
    flush();
    writeSync(fd, checksum.digest());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  const directory = openSync(dirname(path), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}

function readScriptSnapshot(store: InMemorySmtNodeStore, path: string): Buffer {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read the snapshot: ${(error as Error).message}`);
  }
  const damaged = (reason: string): Error => new Error(`damaged snapshot: ${reason}`);
  if (file.length < HEADER_LENGTH + CHECKSUM_LENGTH || !file.subarray(0, 8).equals(MAGIC)) {
    throw damaged('not a state tree snapshot (bad magic)');
  }
  const metaLength = file.readUInt32LE(8);
  const count = Number(file.readBigUInt64LE(12));
  const recordsLength = Number(file.readBigUInt64LE(20));
  const expected = HEADER_LENGTH + metaLength + recordsLength + CHECKSUM_LENGTH;
  if (metaLength > MAX_META_LENGTH || expected !== file.length) {
    throw damaged(`the file is ${file.length} bytes, its header announces ${expected}`);
  }
  const body = file.subarray(0, file.length - CHECKSUM_LENGTH);
  if (!createHash('sha256').update(body).digest().equals(file.subarray(body.length))) throw damaged('checksum mismatch');
  const meta = Buffer.from(file.subarray(HEADER_LENGTH, HEADER_LENGTH + metaLength));
  const nodes: { hash: Buffer; data: Buffer }[] = [];
  for (let at = HEADER_LENGTH + metaLength; at < body.length; ) {
    if (body.length - at < RECORD_HEADER) throw damaged(`a node record is cut short at byte ${at}`);
    const length = body.readUInt32LE(at + 32);
    const end = at + RECORD_HEADER + length;
    if (end > body.length) throw damaged(`the node record at byte ${at} runs past the end`);
    nodes.push({ hash: body.subarray(at, at + 32), data: body.subarray(at + RECORD_HEADER, end) });
    at = end;
  }
  if (nodes.length !== count) throw damaged(`${nodes.length} nodes where ${count} were announced`);
  for (const { hash, data } of nodes) store.set(hash, data);
  if (store.size !== count) throw damaged('a node is stored twice');
  return meta;
}
