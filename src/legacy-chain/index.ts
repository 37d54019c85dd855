/**
 * The v3 chain inside a v4 node ("legacy blocks", lisk-sdk v6.1.0 `framework/src/engine/legacy/`):
 * the store, the import from a v3 database, the brackets, and the bytes and JSON the RPC and P2P
 * layers serve. README.md in this folder says what is where.
 */
export { openLegacyChainStore } from './open-legacy-chain-store.js';
export { LegacyChainStore, type LegacyBracketInfo, type LegacyImportCursor, type LegacyBlockToStore } from './legacy-chain-store.js';
export {
  decodeLegacyBlock,
  decodeLegacyHeader,
  encodeLegacyBlock,
  legacyBlockId,
  legacyBlockJSON,
  legacyTransactionId,
  legacyTransactionJSON,
  legacyTransactionRoot,
  type LegacyBlock,
  type LegacyBlockHeader,
} from './legacy-block.js';
export { initLegacyBrackets, isBracketComplete, legacyBracket, type LegacyBracket } from './legacy-brackets.js';
export {
  importLegacyBlocks,
  type LegacyImportOptions,
  type LegacyImportResult,
  type V3BlockSource,
} from './import-legacy-blocks.js';
export { LegacyChainSync, type LegacyChainSyncOptions, type LegacySyncNetwork } from './legacy-chain-sync.js';
export { LegacyImportError, type LegacyImportFailure } from './legacy-import-error.js';
export {
  legacyBlocksAnswerSchema,
  legacyBlockHeaderSchema,
  legacyBlockSchema,
  legacyBracketInfoSchema,
  legacyTransactionSchema,
} from './schemas.js';
