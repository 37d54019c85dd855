/**
 * The ed25519 generator key of each v3 delegate, as lisk-migrator 2.0.1 finds it
 * (`src/utils/block.ts`, `src/utils/transaction.ts`): the generator key of a block in the
 * database, else the sender key of a transaction, else none. v3 has no separate generator key:
 * a delegate forges and signs with its account key, whose address it is, so a key found for an
 * address is that address's key whichever source it came from. Both scans visit every stored
 * block header and transaction, `pageSize` at a time, and keep one entry per distinct key.
 */
import { addressFromPublicKey } from '../../crypto/index.js';
import { scanBlockGeneratorKeys, scanTransactionSenderKeys } from '../v3/v3-chain.js';
import type { V3Database } from '../v3/v3-database.js';

/** Entries between two progress reports. */
const PROGRESS_EVERY = 10_000;

export interface GeneratorKeyScan {
  /** The key found for an address (block generator keys first), or undefined. */
  readonly keyOf: (address: Buffer) => Buffer | undefined;
  readonly blocks: number;
  readonly transactions: number;
}

/** `onProgress` is told now and then how many headers and transactions were read. */
export async function scanGeneratorKeys(
  db: V3Database,
  pageSize: number,
  onProgress?: (entriesRead: number) => void,
): Promise<GeneratorKeyScan> {
  // Hex key → key, per source; each distinct key is hashed into an address once, at the end.
  const blockKeys = new Map<string, Buffer>();
  const senderKeys = new Map<string, Buffer>();
  let read = 0;
  const count = (): void => {
    read += 1;
    if (read % PROGRESS_EVERY === 0) onProgress?.(read);
  };
  const blocks = await scanBlockGeneratorKeys(db, pageSize, (generatorPublicKey) => {
    count();
    const hexKey = generatorPublicKey.toString('hex');
    if (!blockKeys.has(hexKey)) blockKeys.set(hexKey, Buffer.from(generatorPublicKey));
  });
  const transactions = await scanTransactionSenderKeys(db, pageSize, (senderPublicKey) => {
    count();
    const hexKey = senderPublicKey.toString('hex');
    if (!blockKeys.has(hexKey) && !senderKeys.has(hexKey)) senderKeys.set(hexKey, Buffer.from(senderPublicKey));
  });
  onProgress?.(read);
  const byAddress = (keys: Map<string, Buffer>) =>
    new Map([...keys.values()].map((key) => [addressFromPublicKey(key).toString('hex'), key] as const));
  const fromBlocks = byAddress(blockKeys);
  blockKeys.clear();
  const fromTransactions = byAddress(senderKeys);
  senderKeys.clear();
  return {
    keyOf: (address) => {
      const hexAddress = address.toString('hex');
      return fromBlocks.get(hexAddress) ?? fromTransactions.get(hexAddress);
    },
    blocks,
    transactions,
  };
}
