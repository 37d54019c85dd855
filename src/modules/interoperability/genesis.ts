/**
 * The interoperability genesis asset on the mainchain (LIP 0045 "Genesis state initialization",
 * mainchain rules; lisk-sdk MainchainInteroperabilityModule.initGenesisState and
 * BaseInteroperabilityModule.processGenesisState / finalizeGenesisState). Checks run in
 * lisk-sdk's order; the first failing one throws a ValidationError with lisk-sdk's message.
 */
import { codec, validate } from '../../codec/index.js';
import { GenesisStateError, ValidationError } from '../../errors.js';
import type { GenesisContext, MethodContext, ReadContext } from '../base/index.js';
import {
  CHAIN_NAME_MAINCHAIN,
  ChainStatus,
  EMPTY_BYTES,
  EMPTY_HASH,
  INTEROPERABILITY_MODULE_NAME,
  MAX_NUM_VALIDATORS,
  MAX_UINT64,
  MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
} from './constants.js';
import type { InteroperabilityTokenMethod } from './dependencies.js';
import { genesisInteroperabilitySchema } from './schemas.js';
import {
  chainAccountStore,
  chainValidatorsStore,
  channelDataStore,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
  terminatedOutboxStore,
  terminatedStateStore,
} from './stores.js';
import type { ChainInfo, GenesisInteroperability } from './types.js';
import {
  allDistinct,
  computeValidatorsHash,
  getMainchainID,
  getTokenIDLSK,
  invalidNameMessage,
  isAscending,
  isValidChainName,
} from './utils.js';

/** The chain a genesis block is checked against. */
export interface GenesisChain {
  readonly chainID: Buffer;
  /** Timestamp of the genesis block. */
  readonly timestamp: number;
}

const VALID_STATUSES: readonly number[] = [ChainStatus.REGISTERED, ChainStatus.ACTIVE, ChainStatus.TERMINATED];

function fail(message: string): never {
  throw new ValidationError([message]);
}

/** Decodes the asset and checks it against the schema (DecodeError / ValidationError). */
export function decodeGenesisInteroperability(asset: Buffer): GenesisInteroperability {
  const value = codec.decode<GenesisInteroperability>(genesisInteroperabilitySchema, asset);
  validate(genesisInteroperabilitySchema, value);
  return value;
}

/** Every mainchain check of LIP 0045 on a decoded genesis asset. */
export function verifyMainchainGenesis(genesis: GenesisInteroperability, chain: GenesisChain): void {
  if (genesis.ownChainName !== CHAIN_NAME_MAINCHAIN) {
    fail(`ownChainName must be equal to ${CHAIN_NAME_MAINCHAIN}.`);
  }
  const mainchainID = getMainchainID(chain.chainID);
  verifyChainInfos(genesis, chain, mainchainID);
  verifyTerminatedStateAccounts(genesis, mainchainID);
  verifyTerminatedOutboxAccounts(genesis);
}

/** LIP 0045: a chain of this network other than the mainchain (`prefix` names the entry in the message). */
export function verifyChainID(chainID: Buffer, mainchainID: Buffer, prefix: string): void {
  if (chainID.equals(mainchainID)) {
    fail(`${prefix}chainID must not be equal to ${mainchainID.toString('hex')}.`);
  }
  if (chainID[0] !== mainchainID[0]) {
    fail(`${prefix}chainID[0] must be equal to ${mainchainID[0]}.`);
  }
}

function verifyChainInfos(genesis: GenesisInteroperability, chain: GenesisChain, mainchainID: Buffer): void {
  const { chainInfos, ownChainNonce } = genesis;
  if (chainInfos.length === 0 && ownChainNonce !== 0n) {
    fail('ownChainNonce must be 0 if chainInfos is empty.');
  } else if (chainInfos.length !== 0 && ownChainNonce <= 0n) {
    fail('ownChainNonce must be positive if chainInfos is not empty.');
  }

  const chainIDs = chainInfos.map((info) => info.chainID);
  if (!allDistinct(chainIDs)) fail("chainInfos doesn't hold unique chainID.");
  if (!isAscending(chainIDs)) fail('chainInfos is not ordered lexicographically by chainID.');

  const names = chainInfos.map((info) => info.chainData.name);
  if (new Set(names).size !== names.length) fail('chainData.name must be pairwise distinct.');

  for (const chainInfo of chainInfos) {
    verifyChainID(chainInfo.chainID, mainchainID, 'chainInfo.');
    verifyChainData(chainInfo, genesis, chain);
    verifyChannelData(chainInfo, chain);
    verifyChainValidators(chainInfo);
  }
}

function verifyChainData(chainInfo: ChainInfo, genesis: GenesisInteroperability, chain: GenesisChain): void {
  const { chainData } = chainInfo;
  if (chainData.lastCertificate.timestamp >= chain.timestamp) {
    fail('chainData.lastCertificate.timestamp must be less than header.timestamp.');
  }
  if (!isValidChainName(chainData.name)) fail(invalidNameMessage('chainData.name'));
  if (!VALID_STATUSES.includes(chainData.status)) {
    fail(`chainData.status must be one of ${VALID_STATUSES.join(', ')}`);
  }
  if (
    chainData.status === ChainStatus.TERMINATED &&
    !genesis.terminatedStateAccounts.some((account) => account.chainID.equals(chainInfo.chainID))
  ) {
    fail('For each chainInfo with status terminated there should be a corresponding entry in terminatedStateAccounts.');
  }
}

/** LIP 0045: the channel's fee token is the network's LSK and its return fee the fixed one. */
export function verifyChannelData(chainInfo: ChainInfo, chain: GenesisChain): void {
  const { channelData } = chainInfo;
  if (!channelData.messageFeeTokenID.equals(getTokenIDLSK(chain.chainID))) {
    fail('channelData.messageFeeTokenID is not equal to Token.getTokenIDLSK().');
  }
  if (channelData.minReturnFeePerByte !== MIN_RETURN_FEE_PER_BYTE_BEDDOWS) {
    fail(`channelData.minReturnFeePerByte is not equal to ${MIN_RETURN_FEE_PER_BYTE_BEDDOWS}.`);
  }
}

/** LIP 0045: the chain's certifying validators are well formed and match its last certificate. */
export function verifyChainValidators(chainInfo: ChainInfo): void {
  const { activeValidators, certificateThreshold } = chainInfo.chainValidators;
  if (activeValidators.length === 0 || activeValidators.length > MAX_NUM_VALIDATORS) {
    fail(`activeValidators must have at least 1 element and at most ${MAX_NUM_VALIDATORS} elements.`);
  }
  const blsKeys = activeValidators.map((validator) => validator.blsKey);
  if (!isAscending(blsKeys)) fail('activeValidators must be ordered lexicographically by blsKey property.');
  if (!allDistinct(blsKeys)) fail('All blsKey properties must be pairwise distinct.');
  if (activeValidators.some((validator) => validator.bftWeight <= 0n)) fail('validator.bftWeight must be > 0.');

  let totalWeight = 0n;
  for (const validator of activeValidators) totalWeight += validator.bftWeight;
  if (totalWeight > MAX_UINT64) fail(`totalWeight has to be less than or equal to ${MAX_UINT64}.`);
  if (totalWeight / 3n + 1n > certificateThreshold || certificateThreshold > totalWeight) {
    fail('Invalid certificateThreshold input.');
  }
  const { validatorsHash } = chainInfo.chainData.lastCertificate;
  if (!validatorsHash.equals(computeValidatorsHash(activeValidators, certificateThreshold))) {
    fail('Invalid validatorsHash from chainData.lastCertificate.');
  }
}

/** LIP 0045: terminated state accounts have distinct chain IDs in ascending order. */
export function verifyTerminatedStateAccountIDs(genesis: GenesisInteroperability): void {
  const chainIDs = genesis.terminatedStateAccounts.map((account) => account.chainID);
  if (!allDistinct(chainIDs)) fail("terminatedStateAccounts don't hold unique chainID.");
  if (!isAscending(chainIDs)) fail('terminatedStateAccounts must be ordered lexicographically by chainID.');
}

function verifyTerminatedStateAccounts(genesis: GenesisInteroperability, mainchainID: Buffer): void {
  verifyTerminatedStateAccountIDs(genesis);

  for (const { chainID, terminatedStateAccount } of genesis.terminatedStateAccounts) {
    verifyChainID(chainID, mainchainID, 'stateAccount.');
    const chainInfo = genesis.chainInfos.find((info) => info.chainID.equals(chainID));
    if (chainInfo === undefined || chainInfo.chainData.status !== ChainStatus.TERMINATED) {
      fail('For each terminatedStateAccount there should be a corresponding chainInfo at TERMINATED state.');
    }
    if (!terminatedStateAccount.stateRoot.equals(chainInfo.chainData.lastCertificate.stateRoot)) {
      fail("stateAccount.stateRoot doesn't match chainInfo.chainData.lastCertificate.stateRoot.");
    }
    if (!terminatedStateAccount.mainchainStateRoot.equals(EMPTY_HASH)) {
      fail(`stateAccount.mainchainStateRoot is not equal to ${EMPTY_HASH.toString('hex')}.`);
    }
    if (!terminatedStateAccount.initialized) fail('stateAccount is not initialized.');
  }
}

function verifyTerminatedOutboxAccounts(genesis: GenesisInteroperability): void {
  const chainIDs = genesis.terminatedOutboxAccounts.map((account) => account.chainID);
  if (!allDistinct(chainIDs)) fail('terminatedOutboxAccounts do not hold unique chainID.');
  if (!isAscending(chainIDs)) fail('terminatedOutboxAccounts must be ordered lexicographically by chainID.');
  for (const { chainID } of genesis.terminatedOutboxAccounts) {
    if (!genesis.terminatedStateAccounts.some((account) => account.chainID.equals(chainID))) {
      fail(`outboxAccount with chainID: ${chainID.toString('hex')} must have a corresponding entry in terminatedStateAccounts.`);
    }
  }
}

/**
 * LIP 0045 genesis state processing, common to mainchain and sidechain: the own chain account
 * (chain ID = this chain) when it has a name, every chain's account, channel, validators and
 * (unless terminated) outbox root, and the terminated accounts.
 */
export function writeGenesisChainState(ctx: MethodContext, genesis: GenesisInteroperability, chainID: Buffer): void {
  const { state } = ctx;
  if (genesis.ownChainName !== '') {
    ownChainAccountStore.set(state, EMPTY_BYTES, {
      name: genesis.ownChainName,
      chainID,
      nonce: genesis.ownChainNonce,
    });
  }
  for (const chainInfo of genesis.chainInfos) {
    chainAccountStore.set(state, chainInfo.chainID, chainInfo.chainData);
    channelDataStore.set(state, chainInfo.chainID, chainInfo.channelData);
    chainValidatorsStore.set(state, chainInfo.chainID, chainInfo.chainValidators);
    if (chainInfo.chainData.status !== ChainStatus.TERMINATED) {
      outboxRootStore.set(state, chainInfo.chainID, { root: chainInfo.channelData.outbox.root });
    }
  }
  for (const { chainID: terminatedChainID, terminatedStateAccount } of genesis.terminatedStateAccounts) {
    terminatedStateStore.set(state, terminatedChainID, terminatedStateAccount);
  }
  for (const { chainID: terminatedChainID, terminatedOutboxAccount } of genesis.terminatedOutboxAccounts) {
    terminatedOutboxStore.set(state, terminatedChainID, terminatedOutboxAccount);
  }
}

/**
 * LIP 0045 genesis state processing on the mainchain: the common part, then the registered names
 * including `lisk_mainchain` itself.
 */
export function writeMainchainGenesisState(ctx: MethodContext, genesis: GenesisInteroperability, chainID: Buffer): void {
  const { state } = ctx;
  writeGenesisChainState(ctx, genesis, chainID);
  for (const chainInfo of genesis.chainInfos) {
    registeredNamesStore.set(state, Buffer.from(chainInfo.chainData.name, 'ascii'), { chainID: chainInfo.chainID });
  }
  registeredNamesStore.set(state, Buffer.from(CHAIN_NAME_MAINCHAIN, 'ascii'), { chainID: getMainchainID(chainID) });
}

/**
 * LIP 0045 finalization: every channel whose message fee token is native to this chain needs the
 * escrow account that the token module's genesis created for that chain.
 */
export function verifyGenesisEscrowAccounts(ctx: ReadContext, genesis: GenesisInteroperability, token: InteroperabilityTokenMethod): void {
  for (const chainInfo of genesis.chainInfos) {
    const { messageFeeTokenID } = chainInfo.channelData;
    if (token.isNativeToken(messageFeeTokenID) && !token.escrowSubstoreExists(ctx, chainInfo.chainID, messageFeeTokenID)) {
      fail("Corresponding escrow account doesn't exist.");
    }
  }
}

/** The genesis block's interoperability asset, decoded and schema-checked, or undefined without one. */
export function readGenesisInteroperability(context: GenesisContext): GenesisInteroperability | undefined {
  const asset = context.assets.getAsset(INTEROPERABILITY_MODULE_NAME);
  return asset === undefined ? undefined : decodeGenesisInteroperability(asset);
}

/**
 * LIP 0045 finalization of either chain kind: the escrow accounts of the genesis channels. Like
 * lisk-sdk it decodes the asset unconditionally, so a genesis block without one fails here.
 */
export function finalizeGenesisInteroperability(context: GenesisContext, token: InteroperabilityTokenMethod): void {
  const genesis = readGenesisInteroperability(context);
  if (genesis === undefined) throw new GenesisStateError('The genesis block has no interoperability asset.');
  verifyGenesisEscrowAccounts(context, genesis, token);
}
