/**
 * The ed25519 generator key of each v3 delegate, as lisk-migrator 2.0.1 finds it
 * (`src/utils/block.ts`, `src/utils/transaction.ts`): first the generator key of every block in
 * the database, then the sender key of every transaction whose key is not already a block
 * generator key, kept when its address is a delegate's. v3 has no separate generator key: a
 * delegate forges with its account key, whose address it is, so both sources agree.
 */
import { addressFromPublicKey } from '../../crypto/index.js';
import type { V3Database } from '../v3/v3-database.js';
import { scanBlockGeneratorKeys, scanTransactionSenderKeys } from '../v3/v3-chain.js';

/** Entries between two progress reports. */
const PROGRESS_EVERY = 10_000;

export interface GeneratorKeyScan {
  /** Hex address → the public key found for it. */
  readonly keys: Map<string, Buffer>;
  readonly blocks: number;
  readonly transactions: number;
}

/**
 * Scans every block header, then every transaction, `pageSize` entries at a time.
 * `isDelegate` takes a hex address. `onPage` is told how many entries were read so far, every few thousand.
 */
export async function scanGeneratorKeys(
  db: V3Database,
  pageSize: number,
  isDelegate: (hexAddress: string) => boolean,
  onPage?: (entriesRead: number) => void,
): Promise<GeneratorKeyScan> {
  const keys = new Map<string, Buffer>();
  // Keys already seen, so each distinct key is hashed into an address once.
  const blockKeys = new Set<string>();
  let read = 0;
  const blocks = await scanBlockGeneratorKeys(db, pageSize, (generatorPublicKey) => {
    read += 1;
    if (read % PROGRESS_EVERY === 0) onPage?.(read);
    const hexKey = generatorPublicKey.toString('hex');
    if (blockKeys.has(hexKey)) return;
    blockKeys.add(hexKey);
    keys.set(addressFromPublicKey(generatorPublicKey).toString('hex'), Buffer.from(generatorPublicKey));
  });
  const senderKeys = new Set<string>();
  const transactions = await scanTransactionSenderKeys(db, pageSize, (senderPublicKey) => {
    read += 1;
    if (read % PROGRESS_EVERY === 0) onPage?.(read);
    const hexKey = senderPublicKey.toString('hex');
    if (blockKeys.has(hexKey) || senderKeys.has(hexKey)) return;
    senderKeys.add(hexKey);
    const address = addressFromPublicKey(senderPublicKey).toString('hex');
    if (isDelegate(address)) keys.set(address, Buffer.from(senderPublicKey));
  });
  onPage?.(read);
  return { keys, blocks, transactions };
}
