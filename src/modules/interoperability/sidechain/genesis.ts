/**
 * The interoperability genesis asset on a sidechain (LIP 0045 "Genesis state initialization",
 * sidechain rules; lisk-sdk sidechain/module.ts initGenesisState). A sidechain knows at most one
 * partner chain at genesis, the mainchain of its network; checks run in lisk-sdk's order and the
 * first failing one throws a ValidationError with lisk-sdk's message.
 */
import { ValidationError } from '../../../errors.js';
import { CHAIN_NAME_MAINCHAIN, ChainStatus, EMPTY_HASH, MAX_CHAIN_NAME_LENGTH, MIN_CHAIN_NAME_LENGTH } from '../constants.js';
import { type GenesisChain, verifyChainID, verifyChainValidators, verifyChannelData, verifyTerminatedStateAccountIDs } from '../genesis.js';
import type { GenesisInteroperability } from '../types.js';
import { getMainchainID, invalidNameMessage, isValidChainName } from '../utils.js';

const MAINCHAIN_STATUSES: readonly number[] = [ChainStatus.REGISTERED, ChainStatus.ACTIVE];

function fail(message: string): never {
  throw new ValidationError([message]);
}

/** Every sidechain check of LIP 0045 on a decoded genesis asset. */
export function verifySidechainGenesis(genesis: GenesisInteroperability, chain: GenesisChain): void {
  const mainchainID = getMainchainID(chain.chainID);
  verifyMainchainInfo(genesis, chain, mainchainID);
  verifySidechainTerminatedStateAccounts(genesis, chain, mainchainID);
  if (genesis.terminatedOutboxAccounts.length !== 0) fail('terminatedOutboxAccounts must be empty.');
}

/**
 * Without chain infos the chain is not yet registered on the mainchain, and every other field is
 * empty; with them, the own name is set and the only chain info is the mainchain's.
 */
function verifyMainchainInfo(genesis: GenesisInteroperability, chain: GenesisChain, mainchainID: Buffer): void {
  const { ownChainName, ownChainNonce, chainInfos } = genesis;
  if (chainInfos.length === 0) {
    // lisk-sdk's messages end in "empty.." (a period inside and one after the interpolation).
    const unregistered = 'if chainInfos is empty.';
    if (ownChainName !== '') fail(`ownChainName must be empty string, ${unregistered}.`);
    if (ownChainNonce !== 0n) fail(`ownChainNonce must be 0, ${unregistered}.`);
    if (genesis.terminatedStateAccounts.length !== 0) fail(`terminatedStateAccounts must be empty, ${unregistered}.`);
    if (genesis.terminatedOutboxAccounts.length !== 0) fail(`terminatedOutboxAccounts must be empty, ${unregistered}.`);
    return;
  }

  if (ownChainName.length < MIN_CHAIN_NAME_LENGTH || ownChainName.length > MAX_CHAIN_NAME_LENGTH) {
    fail(`ownChainName.length must be inclusively between ${MIN_CHAIN_NAME_LENGTH} and ${MAX_CHAIN_NAME_LENGTH}.`);
  }
  if (!isValidChainName(ownChainName)) fail(invalidNameMessage('ownChainName'));
  if (ownChainName === CHAIN_NAME_MAINCHAIN) fail(`ownChainName must be not equal to ${CHAIN_NAME_MAINCHAIN}.`);
  if (ownChainNonce <= 0n) fail('ownChainNonce must be > 0.');
  if (chainInfos.length !== 1) fail('chainInfos must contain exactly one entry.');

  const mainchainInfo = chainInfos[0]!;
  if (!mainchainInfo.chainID.equals(mainchainID)) fail(`mainchainInfo.chainID must be equal to ${mainchainID.toString('hex')}.`);
  const { chainData } = mainchainInfo;
  if (chainData.name !== CHAIN_NAME_MAINCHAIN) fail(`chainData.name must be equal to ${CHAIN_NAME_MAINCHAIN}.`);
  if (!MAINCHAIN_STATUSES.includes(chainData.status)) fail(`chainData.status must be one of ${MAINCHAIN_STATUSES.join(', ')}.`);
  if (chainData.lastCertificate.timestamp >= chain.timestamp) fail('chainData.lastCertificate.timestamp must be < header.timestamp.');
  verifyChannelData(mainchainInfo, chain);
  verifyChainValidators(mainchainInfo);
}

/**
 * A terminated chain's state account is either initialized from its own certified state root, or
 * waits for initialization from the mainchain's state root, never both or neither.
 */
function verifySidechainTerminatedStateAccounts(genesis: GenesisInteroperability, chain: GenesisChain, mainchainID: Buffer): void {
  verifyTerminatedStateAccountIDs(genesis);
  const emptyHash = EMPTY_HASH.toString('hex');
  for (const { chainID, terminatedStateAccount } of genesis.terminatedStateAccounts) {
    verifyChainID(chainID, mainchainID, 'stateAccount.');
    if (chainID.equals(chain.chainID)) fail('stateAccount.chainID must not be equal to OWN_CHAIN_ID.');
    const { stateRoot, mainchainStateRoot, initialized } = terminatedStateAccount;
    if (initialized) {
      if (stateRoot.equals(EMPTY_HASH)) fail(`stateAccount.stateRoot must not be equal to "${emptyHash}", if initialized is true.`);
      if (!mainchainStateRoot.equals(EMPTY_HASH)) {
        fail(`terminatedStateAccount.mainchainStateRoot must be equal to "${emptyHash}", if initialized is true`);
      }
    } else {
      // "mst" is lisk-sdk's spelling.
      if (!stateRoot.equals(EMPTY_HASH)) fail(`stateAccount.stateRoot mst be equal to "${emptyHash}", if initialized is false.`);
      if (mainchainStateRoot.equals(EMPTY_HASH)) {
        fail(`terminatedStateAccount.mainchainStateRoot must not be equal to "${emptyHash}", if initialized is false.`);
      }
    }
  }
}
