/** The chain room: protocol objects (blocks, headers, transactions, assets, events) and the chain store. */
export * from './block.js';
export * from './block-assets.js';
export * from './block-header.js';
export * from './chain-store.js';
export * from './contradicting-headers.js';
export * from './event.js';
export * from './min-fee.js';
export * from './schemas.js';
export * from './transaction.js';
export * from './validators-hash.js';
