/** Basalt's devnet: its specification, keys, genesis assets, bootstrap transactions and files. */
export { DEVNET_SPEC, type DevnetSpec } from './devnet-spec.js';
export { deriveDevnetKeys, devValidatorsKeysFile, type DevnetKeys, type DevnetLegacyAccount } from './devnet-keys.js';
export { devnetGenesisAssets, devnetValidatorName } from './devnet-assets.js';
export { devnetMinimumCertifyHeight } from './devnet-certify-height.js';
export {
  BOOTSTRAP_STAKE_AMOUNT,
  BOOTSTRAP_TRANSACTIONS_FILE,
  bootstrapTransactionsFile,
  devnetBootstrapTransactions,
  readBootstrapTransactions,
} from './devnet-bootstrap.js';
export { buildDevnetFiles, writeDevnetFiles, type DevnetFiles } from './write-devnet-files.js';
