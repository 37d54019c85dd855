/**
 * Block static validation (docs/protocol/blocks-and-transactions.md): each rule of Block.validate
 * and Block.validateGenesis refuses with InvalidBlockError and the right reason; bad bytes give
 * DecodeError; assets keep their order rules.
 */
import { describe, expect, it } from 'vitest';
import { BlockAssets, MAX_ASSET_DATA_SIZE } from '../../../src/chain/block-assets.js';
import { BlockHeader, type BlockHeaderProps } from '../../../src/chain/block-header.js';
import { Block } from '../../../src/chain/block.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { EMPTY_HASH } from '../../../src/crypto/index.js';
import { DecodeError, InvalidBlockError, type BlockRejectionReason } from '../../../src/errors.js';
import { loadBinaryFixture } from '../../support/fixtures.js';
import { makeBlock, signedTransfer } from './examples.js';

const MAX_TRANSACTIONS_SIZE = 15360;

function rejection(run: () => void): InvalidBlockError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidBlockError);
    return error as InvalidBlockError;
  }
  throw new Error('expected an InvalidBlockError, nothing was thrown');
}

function expectRejected(run: () => void, reason: BlockRejectionReason, message: RegExp, height = 1): void {
  const error = rejection(run);
  expect(error.reason).toBe(reason);
  expect(error.message).toMatch(message);
  expect(error.height).toBe(height);
  expect(error.code).toBe('ERR_INVALID_BLOCK');
}

/** A block like `block` with other header fields (re-signed, so only the changed rule fails). */
function withHeader(block: Block, changes: Partial<BlockHeaderProps>): Block {
  return makeBlock(block.transactions, block.assets, changes);
}

const randomAsset = { module: 'random', data: Buffer.from(`0a10${'ab'.repeat(16)}`, 'hex') };

describe('Block.validate', () => {
  const block = makeBlock();

  it('accepts the example block, and it round-trips through bytes', () => {
    expect(() => block.validate(MAX_TRANSACTIONS_SIZE)).not.toThrow();
    const decoded = Block.fromBytes(block.bytes);
    expect(decoded.bytes.equals(block.bytes)).toBe(true);
    expect(decoded.header.id.equals(block.header.id)).toBe(true);
    expect(() => decoded.validate(MAX_TRANSACTIONS_SIZE)).not.toThrow();
  });

  it('refuses a wrong transactionRoot', () => {
    expectRejected(
      () => withHeader(block, { transactionRoot: EMPTY_HASH }).validate(MAX_TRANSACTIONS_SIZE),
      'transaction-root',
      /Invalid transaction root/,
    );
    // Same header, one transaction fewer.
    expectRejected(() => new Block(block.header, [], block.assets).validate(MAX_TRANSACTIONS_SIZE), 'transaction-root', /transaction root/);
  });

  it('refuses a wrong assetRoot', () => {
    expectRejected(() => withHeader(block, { assetRoot: EMPTY_HASH }).validate(MAX_TRANSACTIONS_SIZE), 'asset-root', /Invalid asset root/);
  });

  it('refuses version 1 (and the genesis version 0)', () => {
    expectRejected(() => withHeader(block, { version: 1 }).validate(MAX_TRANSACTIONS_SIZE), 'version', /Block version must be 2/);
    expectRejected(() => withHeader(block, { version: 0 }).validate(MAX_TRANSACTIONS_SIZE), 'version', /version/);
  });

  it('refuses unsorted assets', () => {
    const assets = new BlockAssets([randomAsset, { module: 'aaa', data: Buffer.alloc(1) }]);
    expectRejected(() => makeBlock(block.transactions, assets).validate(MAX_TRANSACTIONS_SIZE), 'assets', /not sorted/);
  });

  it('refuses two assets of one module', () => {
    const assets = new BlockAssets([randomAsset, randomAsset]);
    expectRejected(() => makeBlock(block.transactions, assets).validate(MAX_TRANSACTIONS_SIZE), 'assets', /more than one asset/);
  });

  it('refuses asset data above 18 bytes, accepts exactly 18', () => {
    expect(MAX_ASSET_DATA_SIZE).toBe(18);
    const exact = new BlockAssets([{ module: 'random', data: Buffer.alloc(18) }]);
    expect(() => makeBlock(block.transactions, exact).validate(MAX_TRANSACTIONS_SIZE)).not.toThrow();
    const large = new BlockAssets([{ module: 'random', data: Buffer.alloc(19) }]);
    expectRejected(() => makeBlock(block.transactions, large).validate(MAX_TRANSACTIONS_SIZE), 'assets', /19 bytes, more than 18/);
  });

  it('refuses an asset module name outside [a-zA-Z0-9]', () => {
    const assets = new BlockAssets([{ module: 'ran-dom', data: Buffer.alloc(1) }]);
    expectRejected(() => makeBlock(block.transactions, assets).validate(MAX_TRANSACTIONS_SIZE), 'assets', /Invalid module name/);
  });

  it('refuses transactions over maxTransactionsSize, accepts exactly the limit', () => {
    const transactions = [signedTransfer(), signedTransfer().withSignatures([Buffer.alloc(64, 1)])];
    const size = transactions.reduce((sum, tx) => sum + tx.size, 0);
    const full = makeBlock(transactions);
    expect(full.transactionsSize()).toBe(size);
    expect(() => full.validate(size)).not.toThrow();
    expectRejected(() => full.validate(size - 1), 'transactions-size', new RegExp(`${size} bytes, more than the configured ${size - 1}`));
  });

  it('refuses a statically invalid transaction, naming it', () => {
    const unsigned = signedTransfer().withSignatures([]);
    expectRejected(
      () => makeBlock([unsigned]).validate(MAX_TRANSACTIONS_SIZE),
      'transaction-invalid',
      new RegExp(`${unsigned.id.toString('hex')}.*signatures`),
    );
  });

  it('refuses a header with a bad signature length or no previous block', () => {
    const badSignature = new Block(block.header.with({ signature: Buffer.alloc(63) }), block.transactions, block.assets);
    expectRejected(() => badSignature.validate(MAX_TRANSACTIONS_SIZE), 'schema', /Signature length must be 64/);
    expectRejected(
      () => withHeader(block, { previousBlockID: Buffer.alloc(0) }).validate(MAX_TRANSACTIONS_SIZE),
      'schema',
      /Previous block id/,
    );
  });
});

describe('Block.validateGenesis', () => {
  const genesis = Block.fromBytes(loadBinaryFixture('genesis/pos-mainchain-default/genesis_block.blob'));
  const { header } = genesis;
  const variant = (changes: Partial<BlockHeaderProps>): Block =>
    new Block(new BlockHeader({ ...header.props(), ...changes }), genesis.transactions, genesis.assets);

  it('accepts the real genesis block (version 0) and any version', () => {
    expect(header.version).toBe(0);
    expect(() => genesis.validateGenesis()).not.toThrow();
    expect(() => variant({ version: 7 }).validateGenesis()).not.toThrow();
  });

  const headerRules: { name: string; changes: Partial<BlockHeaderProps>; message: RegExp }[] = [
    { name: 'a 31-byte previousBlockID', changes: { previousBlockID: Buffer.alloc(31) }, message: /previousBlockID: must be 32 bytes/ },
    {
      name: 'a non-zero generator address',
      changes: { generatorAddress: Buffer.alloc(20, 1) },
      message: /generatorAddress: must be 20 zero bytes/,
    },
    {
      name: 'a non-empty transactionRoot',
      changes: { transactionRoot: Buffer.alloc(32) },
      message: /transactionRoot: must be the empty hash/,
    },
    { name: 'maxHeightPrevoted ≠ height', changes: { maxHeightPrevoted: 1 }, message: /maxHeightPrevoted: must equal height/ },
    { name: 'maxHeightGenerated ≠ 0', changes: { maxHeightGenerated: 1 }, message: /maxHeightGenerated: must be 0/ },
    { name: 'impliesMaxPrevotes false', changes: { impliesMaxPrevotes: false }, message: /impliesMaxPrevotes: must be true/ },
    {
      name: 'an aggregate commit at another height',
      changes: { aggregateCommit: { height: 1, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) } },
      message: /aggregateCommit.height: must equal height/,
    },
    {
      name: 'aggregation bits',
      changes: { aggregateCommit: { height: 0, aggregationBits: Buffer.from([1]), certificateSignature: Buffer.alloc(0) } },
      message: /aggregationBits: must be empty/,
    },
    {
      name: 'a certificate signature',
      changes: { aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(96) } },
      message: /certificateSignature: must be empty/,
    },
    { name: 'a signature', changes: { signature: Buffer.alloc(64) }, message: /signature: must be empty/ },
  ];

  it.each(headerRules)('refuses $name', ({ changes, message }) => {
    expectRejected(() => variant(changes).validateGenesis(), 'schema', message, 0);
  });

  it('lists every violated header rule in one error', () => {
    const error = rejection(() => variant({ maxHeightGenerated: 3, signature: Buffer.alloc(64) }).validateGenesis());
    expect(error.message).toMatch(/maxHeightGenerated.*signature/);
  });

  it('refuses transactions, a wrong assetRoot and unsorted or duplicate assets', () => {
    expectRejected(
      () => new Block(header, [signedTransfer()], genesis.assets).validateGenesis(),
      'transaction-invalid',
      /no transactions/,
      0,
    );
    expectRejected(() => variant({ assetRoot: EMPTY_HASH }).validateGenesis(), 'asset-root', /Invalid asset root/, 0);
    const assets = genesis.assets.all();
    const reversed = new BlockAssets([...assets].reverse());
    expectRejected(() => new Block(header, [], reversed).validateGenesis(), 'assets', /not sorted/, 0);
    const duplicated = new BlockAssets([assets[0] as { module: string; data: Buffer }, ...assets]);
    expectRejected(() => new Block(header, [], duplicated).validateGenesis(), 'assets', /more than one asset/, 0);
  });

  it('has no asset size limit (the pos asset is 25 807 bytes)', () => {
    expect(genesis.assets.getAsset('pos')?.length).toBe(25807);
  });
});

describe('Block bad bytes', () => {
  const block = makeBlock([signedTransfer(), signedTransfer().withSignatures([Buffer.alloc(64, 2)])]);
  const bytes = block.bytes;

  it('every truncation throws DecodeError unless it ends at a complete item of the last arrays', () => {
    // A block cut right after its header or a whole transaction is a different, well-formed block
    // (the arrays are simply shorter); every other cut must be a DecodeError, never another error.
    const headerEnd = 1 + 2 + block.header.bytes.length; // key 0a, 2-byte length, header
    let wellFormed = 0;
    for (let length = 0; length < bytes.length; length += 1) {
      const prefix = bytes.subarray(0, length);
      let decoded: Block | undefined;
      let failure: unknown;
      try {
        decoded = Block.fromBytes(prefix);
      } catch (error) {
        failure = error;
      }
      if (decoded) {
        expect(decoded.bytes.equals(prefix)).toBe(true);
        expect(length).toBeGreaterThanOrEqual(headerEnd);
        wellFormed += 1;
      } else {
        expect(failure, `length ${length}`).toBeInstanceOf(DecodeError);
      }
    }
    // After the header, after each of the 2 transactions (assets empty).
    expect(wellFormed).toBe(3);
  });

  it('throws DecodeError for a header, transaction or asset that does not decode inside a well-formed block', () => {
    const garbage = Buffer.from([0xff, 0xff]);
    const header = Buffer.concat([Buffer.from([0x0a, garbage.length]), garbage]);
    expect(() => Block.fromBytes(header)).toThrow(DecodeError);
    const withBadTransaction = Buffer.concat([block.bytes.subarray(0, 1 + 2 + block.header.bytes.length), Buffer.from([0x12, 2]), garbage]);
    expect(() => Block.fromBytes(withBadTransaction)).toThrow(DecodeError);
    const withBadAsset = Buffer.concat([block.bytes, Buffer.from([0x1a, 2]), garbage]);
    expect(() => Block.fromBytes(withBadAsset)).toThrow(DecodeError);
  });

  it('decodes the same transactions it encodes', () => {
    const decoded = Block.fromBytes(bytes);
    expect(decoded.transactions.map((tx) => tx.id.toString('hex'))).toEqual(block.transactions.map((tx) => tx.id.toString('hex')));
    expect(decoded.transactions[0]).toBeInstanceOf(Transaction);
  });
});

describe('BlockAssets', () => {
  it('setAsset keeps modules sorted and replaces an existing asset', () => {
    const assets = new BlockAssets();
    assets.setAsset('token', Buffer.from([1]));
    assets.setAsset('auth', Buffer.from([2]));
    assets.setAsset('random', Buffer.from([3]));
    assets.setAsset('token', Buffer.from([4]));
    expect(assets.all().map((asset) => asset.module)).toEqual(['auth', 'random', 'token']);
    expect(assets.getAsset('token')).toEqual(Buffer.from([4]));
    expect(assets.getAsset('pos')).toBeUndefined();
    expect(assets.toJSON()).toEqual([
      { module: 'auth', data: '02' },
      { module: 'random', data: '03' },
      { module: 'token', data: '04' },
    ]);
    expect(() => assets.validate(1)).not.toThrow();
  });

  it('has the empty root without assets', () => {
    expect(new BlockAssets().root().equals(EMPTY_HASH)).toBe(true);
  });
});
