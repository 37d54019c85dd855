/**
 * The Lisk Core v4 devnet genesis block (lisk-core config/devnet, test/fixtures/genesis/
 * lisk-core-devnet): executed with the real module set plus the legacy module, it must give the
 * stateRoot and eventRoot that Lisk Core put in its header — which proves the legacy store layout
 * and value encoding byte for byte — and the legacy store must hold every genesis account.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventSmtLeaves } from '../../../../src/chain/event.js';
import { codec } from '../../../../src/codec/index.js';
import {
  computeEventRoot,
  InMemorySmtNodeStore,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  SparseMerkleTree,
  STATE_KEY_LENGTH,
} from '../../../../src/merkle/index.js';
import { EMPTY_HASH } from '../../../../src/crypto/index.js';
import { ADDRESS_LEGACY_RESERVE, legacyAccountStore, LEGACY_MODULE_NAME } from '../../../../src/modules/legacy/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import {
  createLegacyWorld,
  DEVNET_DIR,
  DEVNET_LSK,
  devnetAssetJSON,
  devnetGenesisBlock,
  executeGenesis,
  type GenesisOutcome,
  type LegacyWorld,
} from './legacy-test-kit.js';

interface LegacyAssetJSON {
  accounts: { address: string; balance: string }[];
}

describe('legacy module on the Lisk Core v4 devnet genesis block', () => {
  const block = devnetGenesisBlock();
  let world: LegacyWorld;
  let outcome: GenesisOutcome;

  // One execution shared by the tests: it verifies 103 proofs of possession.
  beforeAll(async () => {
    world = createLegacyWorld();
    outcome = await executeGenesis(world, block.header, block.assets);
  });

  it('the blob legacy asset is the genesis_assets.json legacy asset encoded with its schema', () => {
    const { data, schema } = devnetAssetJSON(LEGACY_MODULE_NAME);
    expect(block.assets.getAsset(LEGACY_MODULE_NAME)?.toString('hex')).toBe(
      codec.encode(schema, codec.fromJSON(schema, data)).toString('hex'),
    );
  });

  it('executing the genesis with legacy registered last reproduces the header stateRoot and eventRoot', () => {
    const expected = loadJsonFixture<{ header: { stateRoot: string; eventRoot: string } }>(`${DEVNET_DIR}/expected.json`);

    const changes = outcome.state.changes();
    const tree = new SparseMerkleTree(new InMemorySmtNodeStore(), STATE_KEY_LENGTH);
    const { root } = tree.update(
      EMPTY_HASH,
      changes.map((change) => smtKeyFromStateKey(change.key)),
      changes.map((change) => smtValueFromStateValue(change.value as Buffer)),
    );
    expect(root.toString('hex')).toBe(expected.header.stateRoot);
    expect(root.equals(block.header.stateRoot)).toBe(true);

    const eventRoot = computeEventRoot(outcome.events.flatMap((event, index) => eventSmtLeaves({ ...event, index })));
    expect(eventRoot.toString('hex')).toBe(expected.header.eventRoot);
    // The legacy module emits nothing at genesis.
    expect(outcome.events.filter((event) => event.module === LEGACY_MODULE_NAME)).toEqual([]);
  });

  it('stores every genesis account under the legacy store prefix with its balance', () => {
    const { state } = outcome;
    const { accounts } = devnetAssetJSON(LEGACY_MODULE_NAME).data as unknown as LegacyAssetJSON;
    expect(accounts).toHaveLength(30);

    // Store prefix: sha256("legacy")[0..4) with the top bit cleared (449fea74), substore 0 → 0000.
    expect(legacyAccountStore.prefix.toString('hex')).toBe('449fea740000');
    const stored = legacyAccountStore.iterate(state, { keyLength: 8 });
    expect(stored.map((entry) => ({ address: entry.key.toString('hex'), balance: entry.value.balance.toString() }))).toEqual(accounts);
    for (const account of accounts) {
      // Raw value: field 1 varint balance.
      const raw = state.get(Buffer.concat([legacyAccountStore.prefix, Buffer.from(account.address, 'hex')]));
      expect(raw?.toString('hex')).toBe(codec.encode(legacyAccountStore.schema, { balance: BigInt(account.balance) }).toString('hex'));
    }

    const total = accounts.reduce((sum, account) => sum + BigInt(account.balance), 0n);
    expect(total).toBe(329_000_000_000n);
    expect(world.modules.token.method.getLockedAmount({ state }, ADDRESS_LEGACY_RESERVE, DEVNET_LSK, 'legacy')).toBe(total);
  });

  it('the reserve address is sha256("legacyReserve")[0..20) (lisk-core legacy/constants.ts)', () => {
    expect(ADDRESS_LEGACY_RESERVE.toString('hex')).toBe('02e87c669d633481fc99f2b2d5cb2f587d96fbac');
  });
});
