/**
 * Basalt's sidechain devnet (config/devnet-sidechain/): a lisk-sdk 6.1 default sidechain
 * (Application.defaultApplication(config, false)) of the devnet network, chain 04000001, to run
 * beside the mainchain devnet and be connected to it. Everything in its folder but config.json
 * is generated from the values below, like the mainchain devnet (write-devnet-files.ts).
 *
 * THE PASSPHRASES BELOW ARE PUBLIC AND INSECURE, like the mainchain devnet's: each is the BIP-39
 * mnemonic (24 words) of the entropy SHA-256("<label>") for the label shown.
 *
 * Unlike the mainchain devnet it is no migrated chain: the genesis validators have their BLS keys
 * (pos useInvalidBLSKey false), so certificates start at height 1, and the interoperability asset
 * is empty: the chain is registered on the mainchain later (registerSidechain there,
 * registerMainchain here), as a new sidechain is.
 */
import { join } from 'node:path';
import type { ChainConfig } from '../../config/lisk-config.js';
import { deriveValidatorKeys, type ValidatorKeys } from '../../crypto/index.js';
import { ValidationError } from '../../errors.js';
import { genesisInteroperabilitySchema } from '../../modules/interoperability/schemas.js';
import { genesisAssetSchema as genesisPosSchema } from '../../modules/pos/schemas.js';
import { genesisTokenAssetSchema } from '../../modules/token/schemas.js';
import type { GenesisAssetsFile } from '../genesis-assets-file.js';
import { devnetAsset, devnetPosValue, devnetTokenValue, devnetUsers, devnetValidators, type DevnetStakesSpec } from './devnet-assets.js';
import { devValidatorsKeysFile } from './devnet-keys.js';
import { DEVNET_SPEC, type DevnetSpec } from './devnet-spec.js';
import { type DevnetFiles, devnetGenesis, devnetJson, readDevnetConfig, writeDevnetFolder } from './write-devnet-files.js';

export const SIDECHAIN_DEVNET_NETWORK = 'devnet-sidechain';

/** The mainchain devnet's spec without its legacy (migrated chain) parts. */
export type SidechainDevnetSpec = DevnetStakesSpec &
  Pick<DevnetSpec, 'timestamp' | 'keyChainIndex' | 'validatorPassphrase' | 'accountPassphrase' | 'standbyValidators' | 'devAccounts'>;

const LSK = 100_000_000n;

export const SIDECHAIN_DEVNET_SPEC: SidechainDevnetSpec = {
  // The mainchain devnet's genesis time, key paths, rounds, stakes and balances (its legacy
  // values are not read here).
  ...DEVNET_SPEC,
  // label "basalt sidechain devnet validators"
  validatorPassphrase:
    'pet rare unable nature cannon silent solve quiz observe catch hat denial strike aim version duty differ scare saddle reward bird need absent season',
  // label "basalt sidechain devnet accounts"
  accountPassphrase:
    'indicate orient lottery isolate crater shaft idea evolve basic cancel taxi wine sea indoor walk history settle century slice soccer large sentence expect conduct',
  activeValidators: 4,
  standbyValidators: 1,
  devAccounts: 3,
};

export interface SidechainDevnetKeys {
  readonly validators: readonly ValidatorKeys[];
  readonly accounts: readonly ValidatorKeys[];
}

/** Validator and account n = account index n of their passphrase (`keys:create --chainid keyChainIndex`). */
export function deriveSidechainDevnetKeys(spec: SidechainDevnetSpec): SidechainDevnetKeys {
  const derive = (passphrase: string, count: number) =>
    Array.from({ length: count }, (_, accountIndex) => deriveValidatorKeys(passphrase, { chainIndex: spec.keyChainIndex, accountIndex }));
  return {
    validators: derive(spec.validatorPassphrase, spec.activeValidators + spec.standbyValidators),
    accounts: derive(spec.accountPassphrase, spec.devAccounts),
  };
}

/**
 * The genesis assets: every validator registered with its keys and staking on itself, the funded
 * accounts, and a chain not yet registered on its mainchain (empty interoperability asset).
 */
export function sidechainDevnetGenesisAssets(spec: SidechainDevnetSpec, keys: SidechainDevnetKeys, chainID: Buffer): GenesisAssetsFile {
  const tokenID = Buffer.concat([chainID, Buffer.alloc(4)]);
  const validators = devnetValidators(spec, keys.validators);
  const unregistered = { ownChainName: '', ownChainNonce: 0n, chainInfos: [], terminatedStateAccounts: [], terminatedOutboxAccounts: [] };
  return {
    assets: [
      devnetAsset('interoperability', genesisInteroperabilitySchema, unregistered),
      devnetAsset('pos', genesisPosSchema, devnetPosValue(spec, validators, { keysRegistered: true })),
      devnetAsset('token', genesisTokenAssetSchema, devnetTokenValue(devnetUsers(spec, validators, keys.accounts, tokenID), tokenID)),
    ],
  };
}

/** Builds the generated files of the sidechain devnet whose config.json is at `configFile`. */
export async function buildSidechainDevnetFiles(
  configFile: string,
  spec: SidechainDevnetSpec = SIDECHAIN_DEVNET_SPEC,
): Promise<DevnetFiles> {
  const config = readDevnetConfig(configFile);
  checkSidechainDevnetConfig(config, spec);
  const { chainID } = config.genesis;
  const keys = deriveSidechainDevnetKeys(spec);
  const { assetsFile, block } = await devnetGenesis(config, sidechainDevnetGenesisAssets(spec, keys, chainID), spec.timestamp);
  return new Map([
    ['genesis_assets.json', assetsFile],
    ['genesis_block.blob', block.bytes],
    ['dev-validators.json', devnetJson(devValidatorsKeysFile(keys))],
    ['DEV_PASSPHRASES.md', Buffer.from(sidechainPassphrasesDoc(spec, keys, chainID), 'utf8')],
  ]);
}

/** Regenerates the files in `dir` (which holds the sidechain devnet's config.json). */
export async function writeSidechainDevnetFiles(dir: string): Promise<DevnetFiles> {
  return writeDevnetFolder(dir, await buildSidechainDevnetFiles(join(dir, 'config.json')));
}

/** The hand-written config.json must be a sidechain of the devnet network with keyed validators. */
function checkSidechainDevnetConfig(config: ChainConfig, spec: SidechainDevnetSpec): void {
  const roundLength = spec.activeValidators + spec.standbyValidators;
  const problems: string[] = [];
  const { chainID } = config.genesis;
  if (chainID[0] !== 0x04 || chainID.subarray(1).equals(Buffer.alloc(3))) {
    problems.push('.genesis.chainID: must be a sidechain of the devnet network (04xxxxxx, not 04000000)');
  }
  if (config.modules.pos?.useInvalidBLSKey === true) problems.push('.modules.pos.useInvalidBLSKey: must be false');
  if (config.genesis.bftBatchSize !== roundLength) problems.push(`.genesis.bftBatchSize: must be ${roundLength} (the pos round length)`);
  if (problems.length > 0) throw new ValidationError(problems);
}

function sidechainPassphrasesDoc(spec: SidechainDevnetSpec, keys: SidechainDevnetKeys, chainID: Buffer): string {
  const hex = chainID.toString('hex');
  const whole = (beddows: bigint) => `${beddows / LSK} tokens`;
  const validatorRows = keys.validators.map((validator, index) => {
    const role = index < spec.activeValidators ? 'active (init)' : 'standby';
    const stake = index < spec.activeValidators ? spec.activeSelfStake : spec.standbySelfStake;
    return `| ${index} | basalt_dev_${index} | ${validator.address} | ${role} | ${whole(stake)} | \`${validator.keyPath}\` |`;
  });
  const accountRows = keys.accounts.map(
    (account, index) => `| ${index} | ${account.address} | ${whole(spec.devAccountBalance)} | \`${account.keyPath}\` |`,
  );
  return `# SIDECHAIN DEVNET ONLY: PUBLIC, INSECURE PASSPHRASES

> **WARNING: every passphrase in this file is public. Anyone can sign with these keys.**
> **Never use them, or any account derived from them, for anything of value.**

Chain ID \`${hex}\`, a sidechain of the devnet network (mainchain \`04000000\`, the \`devnet\` preset);
its own token ID \`${hex}00000000\` pays fees, stakes and rewards. Genesis timestamp ${spec.timestamp}.
The chain starts unregistered: \`registerSidechain\` on the mainchain and \`registerMainchain\` here
connect the two (a chain connector then relays the cross-chain updates).

Each passphrase is the 24-word BIP-39 mnemonic of the entropy SHA-256(label); keys are derived as
\`lisk-core keys:create --chainid ${spec.keyChainIndex}\` derives them.

## Validators (label "basalt sidechain devnet validators")

\`\`\`
${spec.validatorPassphrase}
\`\`\`

${spec.activeValidators} active + ${spec.standbyValidators} standby validators, registered at genesis with their BLS keys, so blocks are
certified from height 1. \`dev-validators.json\` holds all their keys (plain, unencrypted).

| n | name | address | role | self-stake | account key path |
| --- | --- | --- | --- | --- | --- |
${validatorRows.join('\n')}

## Funded accounts (label "basalt sidechain devnet accounts")

\`\`\`
${spec.accountPassphrase}
\`\`\`

| n | address | balance | key path |
| --- | --- | --- | --- |
${accountRows.join('\n')}
`;
}
