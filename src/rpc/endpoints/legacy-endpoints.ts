/**
 * The engine's `legacy` namespace (lisk-sdk v6.1.0 `framework/src/engine/legacy/endpoint.ts`,
 * registered by `framework/src/engine/engine.ts` on every node, whatever its config): the v3
 * blocks and transactions of the legacy chain store, and the state of the configured brackets.
 *
 * lisk-sdk checks the params by hand, not with a schema, and Basalt keeps its checks and messages:
 * `id` must be a hex string of whole bytes (the empty string passes), `height` any number not
 * below zero (a fraction is truncated, as Node's integer write truncates it; above uint32 the write
 * fails with Node's range message). A record that is missing is reported as lisk-sdk's database
 * reports it, `Specified key <hex of the key> does not exist`, the key being the one lisk-sdk's
 * legacy database uses (Lisk Core 3's layout: `blocks:id:`, `blocks:height:`,
 * `transactions:id:`, `transactions:blockID:` followed by the bytes as latin1 characters, stored
 * as UTF-8; a bracket: byte 02 followed by its snapshot block ID).
 */
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import { legacyBlockJSON, legacyTransactionJSON, type LegacyBracket, type LegacyChainStore } from '../../legacy-chain/index.js';
import type { RpcMethod } from '../registry.js';

export interface LegacyEndpointsOptions {
  readonly store: LegacyChainStore;
  /** The configured brackets (`legacy.brackets`), in config order. */
  readonly brackets: readonly LegacyBracket[];
}

const HEX_BYTES = /^([0-9a-f]{2})+$/i;

function idParam(params: Record<string, unknown>): Buffer {
  const { id } = params;
  if (typeof id !== 'string' || (id !== '' && !HEX_BYTES.test(id))) {
    throw new InvalidParamsError('Invalid parameters. `id` must be a valid hex string.');
  }
  return Buffer.from(id, 'hex');
}

/** The 4-byte height lisk-sdk writes into its key (Node's `writeUIntBE`: truncates, range-checks). */
function heightParam(params: Record<string, unknown>): Buffer {
  const { height } = params;
  if (typeof height !== 'number' || height < 0) {
    throw new InvalidParamsError('Invalid parameters. `height` must be zero or a positive number.');
  }
  const bytes = Buffer.alloc(4);
  try {
    bytes.writeUIntBE(height, 0, 4);
  } catch (error) {
    throw new InvalidParamsError((error as Error).message);
  }
  return bytes;
}

const v3KeyHex = (prefix: string, bytes: Buffer): string => Buffer.from(`${prefix}:${bytes.toString('binary')}`).toString('hex');

const missing = (keyHex: string): NotFoundError => new NotFoundError(`Specified key ${keyHex} does not exist`);

/** `legacy_getTransactionByID`, `_getTransactionsByBlockID`, `_getBlockByID`, `_getBlockByHeight`, `_getLegacyBrackets`. */
export function createLegacyEndpoints(options: LegacyEndpointsOptions): RpcMethod[] {
  const { store, brackets } = options;
  const blockJSON = (id: Buffer) => {
    const block = store.blockById(id);
    if (block === undefined) throw missing(v3KeyHex('blocks:id', id));
    return legacyBlockJSON(block);
  };
  return [
    {
      namespace: 'legacy',
      name: 'getTransactionByID',
      invoke: (params) => {
        const id = idParam(params);
        const transaction = store.transactionById(id);
        if (transaction === undefined) throw missing(v3KeyHex('transactions:id', id));
        return legacyTransactionJSON(transaction);
      },
    },
    {
      namespace: 'legacy',
      name: 'getTransactionsByBlockID',
      invoke: (params) => {
        const id = idParam(params);
        const transactions = store.transactionsOfBlock(id);
        if (transactions === undefined) throw missing(v3KeyHex('transactions:blockID', id));
        return transactions.map((transaction) => legacyTransactionJSON(transaction));
      },
    },
    {
      namespace: 'legacy',
      name: 'getBlockByID',
      invoke: (params) => blockJSON(idParam(params)),
    },
    {
      namespace: 'legacy',
      name: 'getBlockByHeight',
      invoke: (params) => {
        const heightBytes = heightParam(params);
        const id = store.blockIdAtHeight(heightBytes.readUInt32BE(0));
        if (id === undefined) throw missing(v3KeyHex('blocks:height', heightBytes));
        return blockJSON(id);
      },
    },
    {
      namespace: 'legacy',
      name: 'getLegacyBrackets',
      invoke: () =>
        brackets.map((bracket) => {
          const snapshotBlockId = Buffer.from(bracket.snapshotBlockID, 'hex');
          const info = store.bracketInfo(snapshotBlockId);
          if (info === undefined) throw missing(`02${snapshotBlockId.toString('hex')}`);
          return {
            startHeight: info.startHeight,
            snapshotBlockHeight: info.snapshotBlockHeight,
            lastBlockHeight: info.lastBlockHeight,
            snapshotBlockID: bracket.snapshotBlockID,
          };
        }),
    },
  ];
}
