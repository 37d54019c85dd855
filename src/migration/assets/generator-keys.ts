/**
 * The ed25519 generator key of each v3 delegate, as lisk-migrator 2.0.1 finds it
 * (`src/utils/block.ts`, `src/utils/transaction.ts`): first the generator key of every block in
 * the database, then the sender key of every transaction whose key is not already a block
 * generator key, kept when its address is a delegate's. v3 has no separate generator key: a
 * delegate forges with its account key, whose address it is, so both sources agree.
 */
import { addressFromPublicKey } from '../../crypto/index.js';
import type { V3Database } from '../v3/v3-database.js';
import { scanBlockHeaders, scanTransactions } from '../v3/v3-chain.js';

export interface GeneratorKeyScan {
  /** Hex address → the public key found for it. */
  readonly keys: Map<string, Buffer>;
  readonly blocks: number;
  readonly transactions: number;
}

/**
 * Scans every block header, then every transaction, `pageSize` entries at a time.
 * `isDelegate` takes a hex address. `onPage` is told how many entries were read so far.
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
  let blocks = 0;
  for await (const page of scanBlockHeaders(db, pageSize)) {
    for (const { generatorPublicKey } of page) {
      const hexKey = generatorPublicKey.toString('hex');
      if (blockKeys.has(hexKey)) continue;
      blockKeys.add(hexKey);
      keys.set(addressFromPublicKey(generatorPublicKey).toString('hex'), generatorPublicKey);
    }
    blocks += page.length;
    onPage?.(blocks);
  }
  const senderKeys = new Set<string>();
  let transactions = 0;
  for await (const page of scanTransactions(db, pageSize)) {
    for (const { senderPublicKey } of page) {
      const hexKey = senderPublicKey.toString('hex');
      if (blockKeys.has(hexKey) || senderKeys.has(hexKey)) continue;
      senderKeys.add(hexKey);
      const address = addressFromPublicKey(senderPublicKey).toString('hex');
      if (isDelegate(address)) keys.set(address, senderPublicKey);
    }
    transactions += page.length;
    onPage?.(blocks + transactions);
  }
  return { keys, blocks, transactions };
}
