/**
 * The token genesis asset (LIP 0051 "Genesis Block Processing"; lisk-sdk TokenModule
 * initGenesisState): decode and validate it, check every entry (order, uniqueness, locked
 * balances), write the four substores, then check that each stored total supply equals the sum
 * of the balances, locked amounts and escrows it must account for. The first failing check
 * throws with lisk-sdk's message and makes the genesis block invalid.
 */
import { codec, validate } from '../../codec/index.js';
import { encodeLisk32 } from '../../crypto/index.js';
import type { StateWriter } from '../../state/state-view.js';
import type { GenesisContext } from '../base/index.js';
import { ADDRESS_LENGTH, CHAIN_ID_LENGTH, TOKEN_ID_LENGTH, UINT64_LIMIT } from './constants.js';
import { genesisTokenAssetSchema, type GenesisTokenAsset } from './schemas.js';
import { escrowKey, escrowStore, supplyStore, supportedTokensStore, userKey, userStore } from './stores.js';
import { supportAllTokensInStore } from './supported-tokens.js';
import { tokenChainID } from './token-id.js';
import { compareModuleNames, saveUserAccount } from './user-account.js';
import { GenesisStateError } from '../../errors.js';

/** Initializes the token substores from the module's genesis asset; no asset leaves them empty. */
export function initTokenGenesisState(context: GenesisContext, moduleName: string): void {
  const assetBytes = context.assets.getAsset(moduleName);
  if (assetBytes === undefined) return;
  const asset = codec.decode<GenesisTokenAsset>(genesisTokenAssetSchema, assetBytes);
  validate(genesisTokenAssetSchema, asset);

  writeUserSubstore(context.state, asset.userSubstore);
  writeSupplySubstore(context.state, asset.supplySubstore);
  writeEscrowSubstore(context.state, asset.escrowSubstore);
  writeSupportedTokensSubstore(context.state, asset.supportedTokensSubstore);
  checkTotalSupplies(context.state, context.chainID);
}

const byAddressThenToken = (a: { address: Buffer; tokenID: Buffer }, b: { address: Buffer; tokenID: Buffer }) =>
  a.address.compare(b.address) || a.tokenID.compare(b.tokenID);

function writeUserSubstore(state: StateWriter, entries: GenesisTokenAsset['userSubstore']): void {
  const sorted = [...entries].sort(byAddressThenToken);
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const key = userKey(entry.address, entry.tokenID);
    const id = key.toString('latin1');
    if (seen.has(id)) {
      throw new GenesisStateError(
        `Address ${encodeLisk32(entry.address)} and tokenID ${entry.tokenID.toString('hex')} pair is duplicated.`,
      );
    }
    seen.add(id);
    const expected = sorted[i] as (typeof entries)[number];
    if (!entry.address.equals(expected.address) || !entry.tokenID.equals(expected.tokenID)) {
      throw new GenesisStateError('UserSubstore must be sorted by address and tokenID.');
    }

    const modules = new Set<string>();
    let previousModule = '';
    for (const locked of entry.lockedBalances) {
      modules.add(locked.module);
      if (locked.amount === 0n) {
        throw new GenesisStateError(`Address ${encodeLisk32(entry.address)} contains 0 amount locked balance.`);
      }
      if (compareModuleNames(locked.module, previousModule) < 0) {
        throw new GenesisStateError('Locked balances must be sorted by module.');
      }
      previousModule = locked.module;
    }
    if (modules.size !== entry.lockedBalances.length) {
      throw new GenesisStateError(`Address ${encodeLisk32(entry.address)} has duplicate module in locked balances.`);
    }

    saveUserAccount(state, entry.address, entry.tokenID, {
      availableBalance: entry.availableBalance,
      lockedBalances: entry.lockedBalances,
    });
  });
}

function writeSupplySubstore(state: StateWriter, entries: GenesisTokenAsset['supplySubstore']): void {
  const sorted = [...entries].sort((a, b) => a.tokenID.compare(b.tokenID));
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const id = entry.tokenID.toString('latin1');
    if (seen.has(id)) {
      throw new GenesisStateError(`Supply store token ID ${entry.tokenID.toString('hex')} is duplicated.`);
    }
    seen.add(id);
    if (!entry.tokenID.equals((sorted[i] as (typeof entries)[number]).tokenID)) {
      throw new GenesisStateError('SupplySubstore must be sorted by tokenID.');
    }
    supplyStore.set(state, entry.tokenID, { totalSupply: entry.totalSupply });
  });
}

function writeEscrowSubstore(state: StateWriter, entries: GenesisTokenAsset['escrowSubstore']): void {
  const sorted = [...entries].sort((a, b) => a.escrowChainID.compare(b.escrowChainID) || a.tokenID.compare(b.tokenID));
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const key = escrowKey(entry.escrowChainID, entry.tokenID);
    const id = key.toString('latin1');
    if (seen.has(id)) {
      throw new GenesisStateError(
        `Escrow store escrowChainID ${entry.escrowChainID.toString('hex')} and tokenID ${entry.tokenID.toString('hex')} pair is duplicated.`,
      );
    }
    seen.add(id);
    const expected = sorted[i] as (typeof entries)[number];
    if (!entry.escrowChainID.equals(expected.escrowChainID) || !entry.tokenID.equals(expected.tokenID)) {
      throw new GenesisStateError('EscrowSubstore must be sorted by escrowChainID and tokenID.');
    }
    escrowStore.set(state, key, { amount: entry.amount });
  });
}

function writeSupportedTokensSubstore(state: StateWriter, entries: GenesisTokenAsset['supportedTokensSubstore']): void {
  if (entries.length === 0) return;
  const first = entries[0] as (typeof entries)[number];
  // A single entry with an empty chain ID means "all tokens of all chains".
  if (entries.length === 1 && first.chainID.length === 0) {
    if (first.supportedTokenIDs.length !== 0) {
      throw new GenesisStateError('supportedTokenIds must be an empty array when all tokens are supported.');
    }
    supportAllTokensInStore(state);
    return;
  }

  const sorted = [...entries].sort((a, b) => a.chainID.compare(b.chainID));
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (entry.chainID.length !== CHAIN_ID_LENGTH) {
      throw new GenesisStateError(`supportedTokensSubstore chainIDs must be of length ${CHAIN_ID_LENGTH}.`);
    }
    const id = entry.chainID.toString('latin1');
    if (seen.has(id)) {
      throw new GenesisStateError(`supportedTokenIDsSet chain ID ${entry.chainID.toString('hex')} is duplicated.`);
    }
    seen.add(id);
    if (!entry.chainID.equals((sorted[i] as (typeof entries)[number]).chainID)) {
      throw new GenesisStateError('supportedTokensSubstore must be sorted by chainID.');
    }
    if (!isStrictlyAscending(entry.supportedTokenIDs)) {
      throw new GenesisStateError('supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.');
    }
    for (const tokenID of entry.supportedTokenIDs) {
      if (!tokenID.subarray(0, CHAIN_ID_LENGTH).equals(entry.chainID)) {
        throw new GenesisStateError('supportedTokensSubstore tokenIDs must match the chainID.');
      }
    }
    supportedTokensStore.set(state, entry.chainID, { supportedTokenIDs: entry.supportedTokenIDs });
  });
}

/** Unique and sorted together is the same as strictly ascending. */
function isStrictlyAscending(ids: readonly Buffer[]): boolean {
  for (let i = 1; i < ids.length; i += 1) {
    if ((ids[i - 1] as Buffer).compare(ids[i] as Buffer) >= 0) return false;
  }
  return true;
}

/**
 * For every native token: balances + locked amounts; for every escrowed token (whatever its
 * chain, as lisk-sdk): + escrowed amounts. Each sum must fit in a uint64 and equal a stored,
 * non-zero supply (lisk-sdk tests `!stored`, so a stored 0 never matches); a stored supply no
 * sum accounts for must be 0.
 */
function checkTotalSupplies(state: StateWriter, ownChainID: Buffer): void {
  const computed = new Map<string, { tokenID: Buffer; supply: bigint }>();
  const add = (tokenID: Buffer, amount: bigint) => {
    const id = tokenID.toString('latin1');
    const entry = computed.get(id);
    if (entry === undefined) computed.set(id, { tokenID, supply: amount });
    else entry.supply += amount;
  };

  const userRange = {
    gte: Buffer.alloc(ADDRESS_LENGTH + TOKEN_ID_LENGTH, 0),
    lte: Buffer.alloc(ADDRESS_LENGTH + TOKEN_ID_LENGTH, 0xff),
  };
  // Decoded one account at a time: a migrated state has hundreds of thousands.
  userStore.forEach(state, userRange, (key, value) => {
    const tokenID = key.subarray(ADDRESS_LENGTH);
    if (!tokenChainID(tokenID).equals(ownChainID)) return;
    add(
      tokenID,
      value.lockedBalances.reduce((sum, locked) => sum + locked.amount, value.availableBalance),
    );
  });
  const escrowRange = {
    gte: Buffer.alloc(CHAIN_ID_LENGTH + TOKEN_ID_LENGTH, 0),
    lte: Buffer.alloc(CHAIN_ID_LENGTH + TOKEN_ID_LENGTH, 0xff),
  };
  for (const { key, value } of escrowStore.iterate(state, escrowRange)) {
    add(key.subarray(CHAIN_ID_LENGTH), value.amount);
  }

  for (const { tokenID, supply } of computed.values()) {
    if (supply >= UINT64_LIMIT) {
      throw new GenesisStateError(`Total supply for tokenID: ${tokenID.toString('hex')} exceeds uint64 range.`);
    }
  }

  const stored = new Map<string, bigint>();
  const tokenRange = { gte: Buffer.alloc(TOKEN_ID_LENGTH, 0), lte: Buffer.alloc(TOKEN_ID_LENGTH, 0xff) };
  for (const { key, value } of supplyStore.iterate(state, tokenRange)) {
    stored.set(key.toString('latin1'), value.totalSupply);
  }
  for (const [id, { supply }] of computed) {
    const storedSupply = stored.get(id);
    if (storedSupply === undefined || storedSupply === 0n || storedSupply !== supply) {
      throw new GenesisStateError('Stored total supply conflicts with computed supply.');
    }
  }
  for (const [id, supply] of stored) {
    if (!computed.has(id) && supply !== 0n) {
      throw new GenesisStateError('Stored total supply is non zero but cannot be computed.');
    }
  }
}
