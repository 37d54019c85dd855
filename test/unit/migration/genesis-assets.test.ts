/**
 * The genesis asset rules of lisk-migrator 2.0.1 (its `src/assets/*.ts`), each on a small
 * synthetic Lisk Core 3 database: ordering, locks, the legacy reserve, generator keys, stakes and
 * pending unlocks, and the initial validators from the round r − 2 vote weights.
 */
import { describe, expect, it } from 'vitest';
import { encodeLisk32Address } from '../../../src/codec/index.js';
import { sha256 } from '../../../src/crypto/index.js';
import { MigrationError, migrateSnapshot } from '../../../src/migration/index.js';
import { ADDRESS_LEGACY_RESERVE } from '../../../src/modules/legacy/constants.js';
import { syntheticPublicKey, v3Account, v3AddressOf, v3Transaction } from '../../support/v3-database-writer.js';
import { assetsOf, forger, writeV3Database } from './synthetic-v3.js';

const LSK = 100_000_000n;
const lsk32 = (address: Buffer): string => encodeLisk32Address(address);
const keyOf = (label: string) => {
  const publicKey = syntheticPublicKey(label);
  return { publicKey, address: v3AddressOf(publicKey) };
};
const delegateAccount = (address: Buffer, username: string, extra: Partial<{ pomHeights: number[]; isBanned: boolean }> = {}) =>
  v3Account({
    address,
    token: { balance: 5n * LSK },
    dpos: { delegate: { username, lastForgedHeight: 300, consecutiveMissedBlocks: 2, totalVotesReceived: 77n, ...extra } },
  });
/** One vote-weight list per round 1 … 6, each naming `addresses` in the given order. */
const weightsFor = (addresses: readonly Buffer[]) =>
  [1, 2, 3, 4, 5, 6].map((round) => ({ round, delegates: addresses.map((address) => ({ address, voteWeight: 1000n * LSK })) }));

interface UserEntry {
  address: string;
  tokenID: string;
  availableBalance: string;
  lockedBalances: { module: string; amount: string }[];
}

describe('migration genesis assets (lisk-migrator 2.0.1 rules) on synthetic v3 databases', () => {
  it('legacy: unregistered addresses sorted by bytes; auth: every account sorted by address, key lists sorted, nonce kept', async () => {
    const multisig = keyOf('multisig');
    const [low, high] = [Buffer.alloc(32, 1), Buffer.alloc(32, 9)];
    const accounts = [
      v3Account({ address: Buffer.alloc(20, 0xee), sequence: { nonce: 12n } }),
      v3Account({
        address: multisig.address,
        keys: { numberOfSignatures: 2, mandatoryKeys: [high, low], optionalKeys: [Buffer.alloc(32, 5), Buffer.alloc(32, 3)] },
      }),
      v3Account({ address: Buffer.alloc(20, 0x01) }),
      // Not a 20-byte address: lisk-migrator drops such entries.
      v3Account({ address: Buffer.alloc(19, 0x02) }),
    ];
    const unregistered = [
      { address: Buffer.from('ff00000000000001', 'hex'), balance: 3n },
      { address: Buffer.from('0000000000000009', 'hex'), balance: 4n },
    ];
    const path = await writeV3Database({ accounts, unregistered, voteWeights: weightsFor([forger.address]) });
    const assets = await assetsOf(path, 309);
    expect(assets.legacy).toEqual({
      accounts: [
        { address: '0000000000000009', balance: '4' },
        { address: 'ff00000000000001', balance: '3' },
      ],
    });
    const auth = assets.auth as { authDataSubstore: { address: string; authAccount: Record<string, unknown> }[] };
    const sortedAddresses = [Buffer.alloc(20, 0x01), multisig.address, Buffer.alloc(20, 0xee)].sort(Buffer.compare).map(lsk32);
    expect(auth.authDataSubstore.map((entry) => entry.address)).toEqual(sortedAddresses);
    expect(auth.authDataSubstore.find((entry) => entry.address === lsk32(multisig.address))?.authAccount).toEqual({
      numberOfSignatures: 2,
      mandatoryKeys: [low.toString('hex'), high.toString('hex')],
      optionalKeys: ['03'.repeat(32), '05'.repeat(32)],
      nonce: '0',
    });
    expect(auth.authDataSubstore.find((entry) => entry.address === lsk32(Buffer.alloc(20, 0xee)))?.authAccount.nonce).toBe('12');
  });

  it('token: every account but the reserve, pos lock = votes + unlocking, the reserve with the legacy lock, the supply', async () => {
    const voter = keyOf('voter');
    const delegate = keyOf('delegate');
    const accounts = [
      v3Account({ address: Buffer.alloc(20, 0xaa) }), // nothing at all: still an entry
      v3Account({
        address: voter.address,
        token: { balance: 7n * LSK },
        dpos: {
          sentVotes: [{ delegateAddress: delegate.address, amount: 30n * LSK }],
          unlocking: [{ delegateAddress: delegate.address, amount: 10n * LSK, unvoteHeight: 100 }],
        },
      }),
      delegateAccount(delegate.address, 'delegate'),
    ];
    const unregistered = [{ address: Buffer.alloc(8, 1), balance: 6n * LSK }];
    const path = await writeV3Database({ accounts, unregistered, voteWeights: weightsFor([delegate.address]) });
    const token = (await assetsOf(path, 309, { tokenID: Buffer.from('0100000000000000', 'hex') })).token as {
      userSubstore: UserEntry[];
      supplySubstore: unknown[];
    };
    const byAddress = new Map(token.userSubstore.map((entry) => [entry.address, entry]));
    expect(token.userSubstore.map((entry) => entry.address)).toEqual(
      [Buffer.alloc(20, 0xaa), voter.address, delegate.address, ADDRESS_LEGACY_RESERVE].sort(Buffer.compare).map(lsk32),
    );
    expect(byAddress.get(lsk32(Buffer.alloc(20, 0xaa)))).toEqual({
      tokenID: '0100000000000000',
      availableBalance: '0',
      lockedBalances: [],
      address: lsk32(Buffer.alloc(20, 0xaa)),
    });
    expect(byAddress.get(lsk32(voter.address))?.lockedBalances).toEqual([{ module: 'pos', amount: String(40n * LSK) }]);
    expect(byAddress.get(lsk32(ADDRESS_LEGACY_RESERVE))).toEqual({
      tokenID: '0100000000000000',
      availableBalance: '0',
      lockedBalances: [{ module: 'legacy', amount: String(6n * LSK) }],
      address: lsk32(ADDRESS_LEGACY_RESERVE),
    });
    // 7 + 40 (voter) + 5 (delegate) + 6 (legacy).
    expect(token.supplySubstore).toEqual([{ tokenID: '0100000000000000', totalSupply: String(58n * LSK) }]);
  });

  it('token: the reserve gets its entry with a 0 legacy lock when nothing is unregistered', async () => {
    const path = await writeV3Database({
      accounts: [delegateAccount(forger.address, 'forger')],
      voteWeights: weightsFor([forger.address]),
    });
    const token = (await assetsOf(path, 309)).token as { userSubstore: UserEntry[] };
    expect(token.userSubstore.find((entry) => entry.address === lsk32(ADDRESS_LEGACY_RESERVE))?.lockedBalances).toEqual([
      { module: 'legacy', amount: '0' },
    ]);
  });

  it('a reserve account that held LSK and voted: balance available, own pos lock, counted twice in the supply, and v4 refuses the block', async () => {
    const accounts = [
      delegateAccount(forger.address, 'forger'),
      v3Account({
        address: ADDRESS_LEGACY_RESERVE,
        token: { balance: 3n * LSK },
        dpos: { sentVotes: [{ delegateAddress: forger.address, amount: 10n * LSK }] },
      }),
    ];
    const unregistered = [{ address: Buffer.alloc(8, 7), balance: 2n * LSK }];
    const path = await writeV3Database({ accounts, unregistered, voteWeights: weightsFor([forger.address]) });
    const token = (await assetsOf(path, 309)).token as { userSubstore: UserEntry[]; supplySubstore: { totalSupply: string }[] };
    const reserve = token.userSubstore.filter((entry) => entry.address === lsk32(ADDRESS_LEGACY_RESERVE));
    expect(reserve).toEqual([
      {
        tokenID: '0000000000000000',
        availableBalance: String(3n * LSK),
        // Sorted by module name: legacy before pos. The legacy lock includes the reserve's own balance.
        lockedBalances: [
          { module: 'legacy', amount: String(5n * LSK) },
          { module: 'pos', amount: String(10n * LSK) },
        ],
        address: lsk32(ADDRESS_LEGACY_RESERVE),
      },
    ]);
    // forger 5 + reserve (3 + 10) + legacy 5.
    expect(token.supplySubstore[0]?.totalSupply).toBe(String(23n * LSK));

    const error = await migrateSnapshot({ dbPath: path, snapshotHeight: 309, network: 'mainnet' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.code).toBe('MIGRATION_GENESIS_FAILED');
    expect(error.message).toMatch(/^Failed to create genesis block\.\nError: /);
    expect(error.message).toContain('Total balance for all legacy accounts is not equal to locked amount');
    expect(JSON.parse(error.genesisAssetsJson).assets.map((asset: { module: string }) => asset.module)).toEqual([
      'auth',
      'interoperability',
      'legacy',
      'pos',
      'token',
    ]);
  });

  it('pos validators: every delegate banned, placeholder BLS keys, v3 counters, commission 100 %, PoM heights in v3 order', async () => {
    const accounts = [delegateAccount(forger.address, 'forger', { pomHeights: [90, 12, 55], isBanned: false })];
    const path = await writeV3Database({ accounts, voteWeights: weightsFor([forger.address]) });
    const pos = (await assetsOf(path, 412)).pos as { validators: unknown[] };
    expect(pos.validators).toEqual([
      {
        name: 'forger',
        blsKey: '00'.repeat(48),
        proofOfPossession: '00'.repeat(96),
        generatorKey: forger.publicKey.toString('hex'),
        lastGeneratedHeight: 300,
        isBanned: true,
        reportMisbehaviorHeights: [90, 12, 55],
        consecutiveMissedBlocks: 2,
        lastCommissionIncreaseHeight: 412,
        commission: 10000,
        sharingCoefficients: [{ tokenID: '0000000000000000', coefficient: '' }],
        address: lsk32(forger.address),
      },
    ]);
  });

  it('generator keys: from blocks first, then from a delegate that only sent transactions, else 32 × ff', async () => {
    const sender = keyOf('sending-delegate');
    const silent = keyOf('silent-delegate');
    const plain = keyOf('plain-account');
    const accounts = [
      delegateAccount(forger.address, 'forger'),
      delegateAccount(sender.address, 'sender'),
      delegateAccount(silent.address, 'silent'),
      v3Account({ address: plain.address, token: { balance: LSK } }),
    ];
    const transactions = [v3Transaction(sender.publicKey, 0n), v3Transaction(plain.publicKey, 0n), v3Transaction(forger.publicKey, 0n)];
    const path = await writeV3Database({ accounts, transactions, voteWeights: weightsFor([forger.address]) });
    const pos = (await assetsOf(path, 309)).pos as { validators: { name: string; generatorKey: string }[] };
    expect(Object.fromEntries(pos.validators.map((validator) => [validator.name, validator.generatorKey]))).toEqual({
      forger: forger.publicKey.toString('hex'),
      sender: sender.publicKey.toString('hex'),
      silent: 'ff'.repeat(32),
    });
  });

  it('stakers: stakes sorted by validator address, pending unlocks in stored order (newest first), self-votes as stakes', async () => {
    const [first, second] = [keyOf('d-1'), keyOf('d-2')].sort((a, b) => Buffer.compare(a.address, b.address)) as [
      ReturnType<typeof keyOf>,
      ReturnType<typeof keyOf>,
    ];
    const voter = keyOf('voter');
    const unlocking = [
      { delegateAddress: first.address, amount: 10n * LSK, unvoteHeight: 8 },
      { delegateAddress: first.address, amount: 20n * LSK, unvoteHeight: 7 },
      { delegateAddress: second.address, amount: 30n * LSK, unvoteHeight: 9 },
    ];
    const accounts = [
      v3Account({
        address: first.address,
        dpos: { delegate: { username: 'first' }, sentVotes: [{ delegateAddress: first.address, amount: 1000n * LSK }] },
      }),
      v3Account({ address: second.address, dpos: { delegate: { username: 'second' } } }),
      v3Account({
        address: voter.address,
        dpos: {
          // Stored out of order on purpose: the asset sorts stakes itself.
          sentVotes: [
            { delegateAddress: second.address, amount: 50n * LSK },
            { delegateAddress: first.address, amount: 40n * LSK },
          ],
          unlocking,
        },
      }),
      v3Account({ address: Buffer.alloc(20, 0x33), token: { balance: LSK } }),
    ];
    const path = await writeV3Database({ accounts, voteWeights: weightsFor([first.address, second.address]) });
    const pos = (await assetsOf(path, 309)).pos as { stakers: { address: string; stakes: unknown[]; pendingUnlocks: unknown[] }[] };
    const coefficients = [{ tokenID: '0000000000000000', coefficient: '' }];
    expect(pos.stakers.map((staker) => staker.address)).toEqual([first.address, voter.address].sort(Buffer.compare).map(lsk32));
    expect(pos.stakers.find((staker) => staker.address === lsk32(first.address))?.stakes).toEqual([
      { amount: String(1000n * LSK), sharingCoefficients: coefficients, validatorAddress: lsk32(first.address) },
    ]);
    const voterEntry = pos.stakers.find((staker) => staker.address === lsk32(voter.address));
    expect(voterEntry?.stakes).toEqual([
      { amount: String(40n * LSK), sharingCoefficients: coefficients, validatorAddress: lsk32(first.address) },
      { amount: String(50n * LSK), sharingCoefficients: coefficients, validatorAddress: lsk32(second.address) },
    ]);
    expect(voterEntry?.pendingUnlocks).toEqual(
      unlocking.map((entry) => ({
        validatorAddress: lsk32(entry.delegateAddress),
        amount: String(entry.amount),
        unstakeHeight: entry.unvoteHeight,
      })),
    );
  });

  it('initValidators: the round r − 2 list, its first 101 delegates, sorted by address', async () => {
    const addresses = Array.from({ length: 105 }, (_, index) => sha256(Buffer.from(`validator-${index}`)).subarray(0, 20));
    const lists = [
      { round: 3, delegates: addresses.slice(0, 3).map((address) => ({ address, voteWeight: 1n })) },
      // r = ceil(516 / 103) = 6 → round 4; the last four of its 105 are cut.
      { round: 4, delegates: addresses.map((address, index) => ({ address, voteWeight: BigInt(1000 - index) })) },
    ];
    const path = await writeV3Database({ accounts: [delegateAccount(forger.address, 'forger')], voteWeights: lists });
    const pos = (await assetsOf(path, 516)).pos as { genesisData: { initRounds: number; initValidators: string[] } };
    expect(pos.genesisData.initRounds).toBe(587);
    expect(pos.genesisData.initValidators).toEqual(addresses.slice(0, 101).sort(Buffer.compare).map(lsk32));
  });

  it('initValidators: a missing or empty round r − 2 list is the migrator error, naming the round', async () => {
    const path = await writeV3Database({
      accounts: [delegateAccount(forger.address, 'forger')],
      voteWeights: [
        { round: 1, delegates: [{ address: forger.address, voteWeight: 1n }] },
        { round: 2, delegates: [] },
      ],
    });
    for (const [height, round] of [
      [412, 2],
      [618, 4],
      [103, -1],
    ] as const) {
      const error = await assetsOf(path, height).catch((caught) => caught);
      expect(error).toBeInstanceOf(MigrationError);
      expect(error.code).toBe('MIGRATION_VOTE_WEIGHTS_MISSING');
      expect(error.message).toBe(`Delegate vote weights for round ${round} (r-2) unavailable, cannot proceed.`);
    }
  });

  it('interoperability: the mainchain name, nothing else', async () => {
    const path = await writeV3Database({
      accounts: [delegateAccount(forger.address, 'forger')],
      voteWeights: weightsFor([forger.address]),
    });
    expect((await assetsOf(path, 309)).interoperability).toEqual({
      ownChainName: 'lisk_mainchain',
      ownChainNonce: '0',
      chainInfos: [],
      terminatedStateAccounts: [],
      terminatedOutboxAccounts: [],
    });
  });
});
