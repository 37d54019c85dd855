/** Batches that stress a tree built from nothing: shared prefixes, keys one bit apart, repeats, deletes. */
import type { Random } from '../native/native-test-support.js';

export interface Batch {
  readonly keyLength: number;
  readonly keys: Buffer[];
  readonly values: Buffer[];
}

/** `count` entries of a random key length (1, 2, 12 or 32 bytes) drawn to collide a lot. */
export function adversarialBatch(random: Random, count: number): Batch {
  const keyLength = [1, 2, 12, 32][random.int(4)] as number;
  const keys: Buffer[] = [];
  const values: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    let key = random.bytes(keyLength);
    const previous = keys[i - 1];
    const kind = random.int(10);
    if (previous !== undefined && kind < 4) {
      // A long shared prefix: the previous key with one bit flipped, anywhere.
      key = Buffer.from(previous);
      const bit = random.int(keyLength * 8);
      key[bit >> 3] = (key[bit >> 3] as number) ^ (0x80 >> (bit & 7));
    } else if (previous !== undefined && kind === 4) {
      key = Buffer.from(keys[random.int(i)] as Buffer); // a repeated key: the last value wins
    } else if (kind === 5) {
      key = Buffer.alloc(keyLength, random.int(2) * 0xff); // all zeros or all ones
      key[keyLength - 1] = random.int(256);
    }
    keys.push(key);
    // Mostly 32-byte values, sometimes empty (a delete) or of other lengths.
    const lengthKind = random.int(12);
    values.push(random.bytes(lengthKind === 0 ? 0 : lengthKind === 1 ? 1 : lengthKind === 2 ? 100 : 32));
  }
  return { keyLength, keys, values };
}
