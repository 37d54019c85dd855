/**
 * The online capture of the forging status: when the v3 node announces the block at the
 * snapshot height (`app:block:new`), ask it for `app:getForgingStatus` (lisk-migrator 2.0.1
 * `src/events.ts`). The block comes hex-encoded; only its header's height is read.
 */
import { forgingStatusFromNode, type ForgingStatusEntry, type V3ForgingStatus } from '../forging-status.js';
import type { V3WsClient } from './v3-ws-client.js';

/** Reads a protobuf varint at `offset`; returns [value, next offset]. */
function readVarint(bytes: Buffer, offset: number): [number, number] {
  let value = 0;
  let shift = 1;
  for (let index = offset; index < bytes.length && index < offset + 10; index += 1) {
    const byte = bytes[index] as number;
    value += (byte & 0x7f) * shift;
    if ((byte & 0x80) === 0) return [value, index + 1];
    shift *= 128;
  }
  throw new Error('Truncated varint.');
}

/** The value of the first field `fieldNumber` of an encoded lisk-codec object (bytes or varint). */
function readField(bytes: Buffer, fieldNumber: number): Buffer | number | undefined {
  let offset = 0;
  while (offset < bytes.length) {
    const [key, afterKey] = readVarint(bytes, offset);
    const wireType = key & 7;
    if (wireType === 0) {
      const [value, next] = readVarint(bytes, afterKey);
      if (Math.floor(key / 8) === fieldNumber) return value;
      offset = next;
    } else if (wireType === 2) {
      const [length, start] = readVarint(bytes, afterKey);
      if (Math.floor(key / 8) === fieldNumber) return bytes.subarray(start, start + length);
      offset = start + length;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The height of a v3 block (`{header: bytes#1, payload: bytes[]#2}`, header
 * `{version#1, timestamp#2, height#3, ...}`); undefined when it cannot be read.
 */
export function v3BlockHeight(blockHex: string): number | undefined {
  try {
    const header = readField(Buffer.from(blockHex, 'hex'), 1);
    if (!Buffer.isBuffer(header)) return undefined;
    const height = readField(header, 3);
    return typeof height === 'number' ? height : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Subscribes to new blocks; at the snapshot block, gets the forging status and hands it to
 * `onCaptured` once. Returns the unsubscribe function.
 */
export function captureForgingStatusAtSnapshot(
  client: V3WsClient,
  snapshotHeight: number,
  onCaptured: (entries: ForgingStatusEntry[]) => void,
  onError: (error: Error) => void,
): () => void {
  let done = false;
  const unsubscribe = client.subscribe('app:block:new', (params) => {
    const block = (params as { block?: unknown } | null)?.block;
    if (done || typeof block !== 'string' || v3BlockHeight(block) !== snapshotHeight) return;
    done = true;
    client
      .invoke<V3ForgingStatus[]>('app:getForgingStatus')
      .then((statuses) => onCaptured(forgingStatusFromNode(Array.isArray(statuses) ? statuses : [])))
      .catch((error: Error) => onError(error));
  });
  return unsubscribe;
}
