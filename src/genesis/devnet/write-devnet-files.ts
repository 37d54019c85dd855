/**
 * Generates config/devnet/: genesis_assets.json, genesis_block.blob, dev-validators.json,
 * bootstrap_transactions.json and DEV_PASSPHRASES.md, from devnet-spec.ts and the hand-written config/devnet/config.json. The
 * genesis block is built from the genesis assets file as written (parsed back), so
 * `basalt genesis:create` on that file gives the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseChainConfig, type ChainConfig } from '../../config/lisk-config.js';
import { ValidationError } from '../../errors.js';
import { createGenesisBlock } from '../create-genesis-block.js';
import { type GenesisAssetsFile, parseGenesisAssetsFile } from '../genesis-assets-file.js';
import { devnetGenesisAssets } from './devnet-assets.js';
import { BOOTSTRAP_TRANSACTIONS_FILE, bootstrapTransactionsFile, devnetBootstrapTransactions } from './devnet-bootstrap.js';
import { devnetMinimumCertifyHeight } from './devnet-certify-height.js';
import { deriveDevnetKeys, devValidatorsKeysFile } from './devnet-keys.js';
import { devnetPassphrasesDoc } from './devnet-passphrases-doc.js';
import { DEVNET_SPEC, type DevnetSpec } from './devnet-spec.js';

/** File name → content of every generated devnet file. */
export type DevnetFiles = ReadonlyMap<string, Buffer>;

/** A generated JSON file: two-space indented, with a final newline. */
export const devnetJson = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, undefined, 2)}\n`, 'utf8');
const json = devnetJson;

/** A devnet's hand-written config.json, parsed (relative paths against its folder). */
export function readDevnetConfig(configFile: string): ChainConfig {
  return parseChainConfig(JSON.parse(readFileSync(configFile, 'utf8')), dirname(configFile));
}

/**
 * The genesis assets file of `assets` and the genesis block built from that file as written
 * (parsed back), so `basalt genesis:create` on the file gives the same bytes.
 */
export async function devnetGenesis(config: ChainConfig, assets: GenesisAssetsFile, timestamp: number) {
  const assetsFile = json(assets);
  const { block } = await createGenesisBlock({
    genesisConfig: config.genesis,
    moduleConfigs: config.modules,
    assets: parseGenesisAssetsFile(JSON.parse(assetsFile.toString('utf8'))).assets,
    timestamp,
  });
  return { assetsFile, block };
}

/** Builds the generated files for the devnet whose config.json is at `configFile`. */
export async function buildDevnetFiles(configFile: string, spec: DevnetSpec = DEVNET_SPEC): Promise<DevnetFiles> {
  const config = readDevnetConfig(configFile);
  const { chainID } = config.genesis;
  const minimumCertifyHeight = checkDevnetConfig(config, spec);
  const keys = deriveDevnetKeys(spec);
  const { assetsFile, block } = await devnetGenesis(config, devnetGenesisAssets(spec, keys, chainID), spec.timestamp);
  return new Map([
    ['genesis_assets.json', assetsFile],
    ['genesis_block.blob', block.bytes],
    ['dev-validators.json', json(devValidatorsKeysFile(keys))],
    [
      BOOTSTRAP_TRANSACTIONS_FILE,
      json(
        bootstrapTransactionsFile(devnetBootstrapTransactions(keys, chainID, spec.legacyValidatorIndex, minFeePerByteOf(config.modules))),
      ),
    ],
    ['DEV_PASSPHRASES.md', Buffer.from(devnetPassphrasesDoc(spec, keys, chainID, minimumCertifyHeight), 'utf8')],
  ]);
}

/** Regenerates the files in `dir` (which holds the devnet's config.json). */
export async function writeDevnetFiles(dir: string): Promise<DevnetFiles> {
  return writeDevnetFolder(dir, await buildDevnetFiles(join(dir, 'config.json')));
}

/** Writes generated devnet files into `dir` (the keys file readable by its owner only). */
export function writeDevnetFolder(dir: string, files: DevnetFiles): DevnetFiles {
  for (const [name, content] of files) writeFileSync(join(dir, name), content, { mode: name === 'dev-validators.json' ? 0o600 : 0o644 });
  return files;
}

/**
 * The hand-written config.json must match what the generated files assume: validators
 * registered without BLS keys (pos useInvalidBLSKey) and certification starting at the last
 * height of the first elected round (devnet-certify-height.ts). Returns minimumCertifyHeight.
 */
function checkDevnetConfig(config: ChainConfig, spec: DevnetSpec): number {
  const roundLength = spec.activeValidators + spec.standbyValidators;
  const expected = devnetMinimumCertifyHeight(spec.initRounds, roundLength);
  const problems: string[] = [];
  if (config.modules.pos?.useInvalidBLSKey !== true) problems.push('.modules.pos.useInvalidBLSKey: must be true');
  if (config.genesis.bftBatchSize !== roundLength) problems.push(`.genesis.bftBatchSize: must be ${roundLength} (the pos round length)`);
  if (config.genesis.minimumCertifyHeight !== expected) {
    problems.push(`.genesis.minimumCertifyHeight: must be ${expected} (the last height of the first elected round)`);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return expected;
}

/** The fee module's minFeePerByte of a config (lisk-sdk default 1000). */
function minFeePerByteOf(modules: Readonly<Record<string, Record<string, unknown>>>): number {
  const value = modules.fee?.minFeePerByte;
  return typeof value === 'number' ? value : 1000;
}
