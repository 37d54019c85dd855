/**
 * Fork choice, in process through the block-receive API: on top of the replayed dev
 * chain two valid blocks compete for the same height (A by the validator of one slot, B by the
 * validator of the next). A node that got A late switches to B when B arrives in its slot (LIP
 * 0014 case 4): it reverts A with the stored diffs, applies B, and ends with exactly the state of
 * a node that only ever saw B; A's transactions go back to its pool. The other outcomes of the
 * rule (identical, double forging, different chain, discard, a competitor that fails) leave the
 * chain as it was.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import type { BlockHeader } from '../../src/chain/block-header.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { MESSAGE_TAG_BLOCK_HEADER, signData } from '../../src/crypto/index.js';
import { BlockReceiver, type BlockReceiverListener } from '../../src/engine/block-receiver.js';
import { ForkStatus } from '../../src/engine/fork-choice.js';
import type { GeneratorKeypair } from '../../src/engine/generator/generator-keypair.js';
import { feePriority } from '../../src/engine/txpool/fee-priority.js';
import { StateMachinePoolVerifier, tipOf } from '../../src/engine/txpool/pool-verifier.js';
import { TransactionPool } from '../../src/engine/txpool/transaction-pool.js';
import { createChainForger, openChain, type ChainForger, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';
import { devValidatorKeypairs } from '../support/dev-keys.js';
import { accountNonce, devAccounts, signedTransfer } from '../unit/txpool/support.js';

const config = devChainConfig();
const { chainID, maxTransactionsSize } = config.genesis;
const keypairs = devValidatorKeypairs();

/** A block with some header fields changed and signed again by its generator. */
function resigned(
  block: Block,
  keypair: GeneratorKeypair,
  changes: Partial<Pick<BlockHeader, 'timestamp' | 'maxHeightPrevoted' | 'stateRoot'>>,
): Block {
  const unsigned = block.header.with(changes);
  const signature = signData(MESSAGE_TAG_BLOCK_HEADER, chainID, unsigned.signingBytes(), keypair.generatorPrivateKey);
  return new Block(unsigned.with({ signature }), block.transactions, block.assets);
}

function candidatesOf(transactions: readonly Transaction[]) {
  const byAccount = new Map<string, Transaction[]>();
  for (const transaction of transactions) byAccount.set(transaction.senderAddress().toString('hex'), [transaction]);
  return { byAccount, feePriority };
}

function chainForgerOf(chain: OpenChain): ChainForger {
  return createChainForger(chain, { genesisConfig: config.genesis });
}

/** The first slot after `after` whose generator at `height` is a dev validator, with its keypair. */
function nextSlotWithKey(chain: OpenChain, height: number, after: number): { slot: number; keypair: GeneratorKeypair } {
  for (let slot = after + 1; slot < after + 200; slot += 1) {
    const { address } = chain.bft.generatorAtTimestamp(chain.stateDb.engineReader, height, chain.bft.slotTime(slot));
    const keypair = keypairs.find((candidate) => candidate.address.equals(address));
    if (keypair) return { slot, keypair };
  }
  throw new Error(`No dev validator key for any slot after ${after}`);
}

/** Records the listener calls as short strings, in order. */
function recorder(): { events: string[]; listener: BlockReceiverListener } {
  const events: string[] = [];
  return {
    events,
    listener: {
      blockApplied: (processed) => events.push(`applied ${processed.block.header.id.toString('hex')}`),
      blockDeleted: (block) => events.push(`deleted ${block.header.id.toString('hex')}`),
      forkDetected: (block, status) => events.push(`forked ${block.header.id.toString('hex')} ${ForkStatus[status]}`),
    },
  };
}

describe('fork choice through the block-receive API', () => {
  let workDir: string;
  let clock = 0;
  const now = (): number => clock;
  /** The node under test (gets A late, then B), and one that only ever sees B. */
  let subject: OpenChain;
  let winnerOnly: OpenChain;
  let tipHeight: number;
  let slotA: number;
  let slotB: number;
  let keyA: GeneratorKeypair;
  let keyB: GeneratorKeypair;
  let blockA: Block;
  let blockB: Block;
  let transfersA: Transaction[];
  let transferB: Transaction;

  const hexId = (block: Block): string => block.header.id.toString('hex');

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-fork-'));
    await seedDevGenesis(join(workDir, 'base'));
    const base = await openChain({ dataPath: join(workDir, 'base'), config, genesisBlock: devGenesisBlock(), now });
    try {
      for (const line of devBlockLines().slice(1)) {
        const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
        clock = block.header.timestamp;
        await base.processor.processBlock(block);
      }
      // As an operator moving the validators to this node would: their last blocks' values.
      const { generator, generatorStore } = chainForgerOf(base);
      tipHeight = base.chainStore.tipHeight();
      for (let height = 1; height <= tipHeight; height += 1) {
        const { generatorAddress, maxHeightGenerated, maxHeightPrevoted } = base.chainStore.getHeaderByHeight(height) as BlockHeader;
        generatorStore.setInfo(generatorAddress, { height, maxHeightGenerated, maxHeightPrevoted });
      }

      const accounts = devAccounts();
      const transfer = (from: number, to: number): Transaction => {
        const sender = accounts[from] as (typeof accounts)[number];
        return signedTransfer(
          sender,
          { nonce: accountNonce(base, sender.address), recipient: (accounts[to] as (typeof accounts)[number]).address },
          chainID,
        );
      };
      transfersA = [transfer(0, 5), transfer(1, 6)];
      transferB = transfer(2, 7);

      // Two competitors for height tip + 1 from consecutive slots with dev keys.
      const tipSlot = base.bft.slotNumber(base.processor.tipHeader().timestamp);
      ({ slot: slotA, keypair: keyA } = nextSlotWithKey(base, tipHeight + 1, tipSlot));
      ({ slot: slotB, keypair: keyB } = nextSlotWithKey(base, tipHeight + 1, slotA));
      blockA = (await generator.generate(keyA, base.bft.slotTime(slotA), candidatesOf(transfersA))).block;
      blockB = (await generator.generate(keyB, base.bft.slotTime(slotB), candidatesOf([transferB]))).block;
    } finally {
      await base.close();
    }
    for (const name of ['subject', 'winner-only', 'lisk61', 'concurrent'])
      cpSync(join(workDir, 'base'), join(workDir, name), { recursive: true });
    subject = await openChain({ dataPath: join(workDir, 'subject'), config, genesisBlock: devGenesisBlock(), now });
    winnerOnly = await openChain({ dataPath: join(workDir, 'winner-only'), config, genesisBlock: devGenesisBlock(), now });
    clock = base.bft.slotTime(slotB) + 1;
  });

  afterAll(async () => {
    await subject?.close();
    await winnerOnly?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('has two valid competitors: same height and parent, different generators and slots', () => {
    expect(blockA.header.height).toBe(tipHeight + 1);
    expect(blockB.header.height).toBe(tipHeight + 1);
    expect(blockA.header.previousBlockID.equals(blockB.header.previousBlockID)).toBe(true);
    expect(blockA.header.maxHeightPrevoted).toBe(blockB.header.maxHeightPrevoted);
    expect(keyA.address.equals(keyB.address)).toBe(false);
    expect(slotB).toBeGreaterThan(slotA);
    expect(blockA.transactions.map((tx) => tx.id.toString('hex'))).toEqual(transfersA.map((tx) => tx.id.toString('hex')));
    expect(blockB.transactions.map((tx) => tx.id.toString('hex'))).toEqual([transferB.id.toString('hex')]);
  });

  it('switches from a late tip to a competitor received in its slot, like a node that only saw the winner', async () => {
    const receiver = new BlockReceiver({
      processor: subject.processor,
      chainStore: subject.chainStore,
      clock: subject.bft,
      maxTransactionsSize,
    });
    const { events, listener } = recorder();
    receiver.addListener(listener);
    const pool = new TransactionPool({
      config: { maxPayloadLength: maxTransactionsSize },
      verifier: new StateMachinePoolVerifier(subject.stateMachine),
      tip: tipOf(subject),
    });
    const poolUpdates: Promise<unknown>[] = [];
    receiver.addListener({
      blockApplied: (processed) => poolUpdates.push(pool.onNewBlock(processed.block)),
      blockDeleted: (block) => poolUpdates.push(pool.onDeleteBlock(block)),
    });
    const poolSettled = async (): Promise<void> => {
      await Promise.all(poolUpdates);
      await pool.settled();
    };
    for (const transaction of [...transfersA, transferB]) expect((await pool.add(transaction)).status).toBe('added');

    // A arrives one slot late (in B's slot): it extends the tip.
    const receivedLate = subject.bft.slotTime(slotB);
    const applied = await receiver.receive(blockA, receivedLate);
    expect(applied.kind).toBe('applied');
    await poolSettled();
    expect(pool.getAll().map((tx) => tx.id.toString('hex'))).toEqual([transferB.id.toString('hex')]);

    // Case 1: A again.
    expect(await receiver.receive(blockA, receivedLate + 1)).toEqual({ kind: 'kept', status: ForkStatus.IDENTICAL_BLOCK });
    // Case 3: A's generator signs a second block for the same slot.
    const doubleForged = resigned(blockA, keyA, { timestamp: blockA.header.timestamp + 1 });
    expect(await receiver.receive(doubleForged, receivedLate + 1)).toEqual({ kind: 'kept', status: ForkStatus.DOUBLE_FORGING });
    // Case 5: a competitor claiming a higher prevoted height belongs to a chain to sync to.
    const prevotedHigher = resigned(blockB, keyB, { maxHeightPrevoted: blockB.header.maxHeightPrevoted + 1 });
    expect(await receiver.receive(prevotedHigher, receivedLate + 1)).toEqual({ kind: 'needs-sync', status: ForkStatus.DIFFERENT_CHAIN });
    expect(events).toEqual([
      `applied ${hexId(blockA)}`,
      `forked ${hexId(doubleForged)} DOUBLE_FORGING`,
      `forked ${hexId(prevotedHigher)} DIFFERENT_CHAIN`,
    ]);
    expect(subject.processor.tipHeader().id.equals(blockA.header.id)).toBe(true);

    // Case 4 with a competitor that fails execution: A is deleted, B' fails, A is stored again.
    events.length = 0;
    const badRoot = resigned(blockB, keyB, { stateRoot: Buffer.alloc(32, 7) });
    const failed = await receiver.receive(badRoot, receivedLate + 1);
    expect(failed.kind).toBe('rejected');
    expect(failed.status).toBe(ForkStatus.TIE_BREAK);
    expect(failed.kind === 'rejected' && failed.error.reason).toBe('state-root');
    expect(events).toEqual([`forked ${hexId(badRoot)} TIE_BREAK`, `deleted ${hexId(blockA)}`, `applied ${hexId(blockA)}`]);
    expect(subject.processor.tipHeader().id.equals(blockA.header.id)).toBe(true);
    expect(subject.stateDb.root().equals(blockA.header.stateRoot)).toBe(true);
    await poolSettled();
    expect(pool.getAll().map((tx) => tx.id.toString('hex'))).toEqual([transferB.id.toString('hex')]);

    // Case 4: B arrives within its own slot and replaces the late A.
    events.length = 0;
    const replaced = await receiver.receive(blockB, subject.bft.slotTime(slotB) + 1);
    expect(replaced.kind).toBe('replaced');
    expect(replaced.kind === 'replaced' && replaced.deleted.header.id.equals(blockA.header.id)).toBe(true);
    expect(events).toEqual([`forked ${hexId(blockB)} TIE_BREAK`, `deleted ${hexId(blockA)}`, `applied ${hexId(blockB)}`]);

    // The node that only saw B.
    await winnerOnly.processor.processBlock(blockB);
    const tip = subject.processor.tipHeader();
    expect(tip.id.equals(blockB.header.id)).toBe(true);
    expect(subject.stateDb.root().equals(winnerOnly.stateDb.root())).toBe(true);
    expect(subject.stateDb.root().equals(blockB.header.stateRoot)).toBe(true);
    expect(subject.bft.getHeights(subject.stateDb.engineReader)).toEqual(winnerOnly.bft.getHeights(winnerOnly.stateDb.engineReader));
    expect(subject.chainStore.getEvents(tip.height)).toEqual(winnerOnly.chainStore.getEvents(tip.height));
    for (const transaction of transfersA) expect(subject.chainStore.getTransaction(transaction.id)).toBeUndefined();
    expect(subject.chainStore.getTransaction(transferB.id)?.id.equals(transferB.id)).toBe(true);
    for (const transaction of transfersA) {
      expect(accountNonce(subject, transaction.senderAddress())).toBe(accountNonce(winnerOnly, transaction.senderAddress()));
    }

    // The reverted block's transactions are back in the pool; B's is gone.
    await poolSettled();
    expect(
      pool
        .getAll()
        .map((tx) => tx.id.toString('hex'))
        .sort(),
    ).toEqual(transfersA.map((tx) => tx.id.toString('hex')).sort());
    expect(pool.getProcessableTransactions().size).toBe(2);

    // A, now older than the tip's slot, no longer has priority.
    events.length = 0;
    expect(await receiver.receive(blockA, clock)).toEqual({ kind: 'kept', status: ForkStatus.DISCARD });
    expect(events).toEqual([`forked ${hexId(blockA)} DISCARD`]);
  });

  it('keeps following the same chain as the winner-only node', async () => {
    const { slot, keypair } = nextSlotWithKey(winnerOnly, tipHeight + 2, slotB);
    clock = winnerOnly.bft.slotTime(slot);
    const { block: next } = await chainForgerOf(winnerOnly).generator.generate(keypair, clock, candidatesOf([]));
    await winnerOnly.processor.processBlock(next);
    const receiver = new BlockReceiver({
      processor: subject.processor,
      chainStore: subject.chainStore,
      clock: subject.bft,
      maxTransactionsSize,
    });
    const outcome = await receiver.receive(next, clock);
    expect(outcome.kind).toBe('applied');
    expect(subject.processor.tipHeader().id.equals(next.header.id)).toBe(true);
    expect(subject.stateDb.root().equals(winnerOnly.stateDb.root())).toBe(true);
  });

  it('decides on blocks received at once one after the other, each against the tip the one before left', async () => {
    const chain = await openChain({ dataPath: join(workDir, 'concurrent'), config, genesisBlock: devGenesisBlock(), now });
    try {
      clock = chain.bft.slotTime(slotB) + 1;
      const receiver = new BlockReceiver({
        processor: chain.processor,
        chainStore: chain.chainStore,
        clock: chain.bft,
        maxTransactionsSize,
      });
      const outcomes = await Promise.all([
        receiver.receive(blockA, chain.bft.slotTime(slotB)),
        receiver.receive(blockB, chain.bft.slotTime(slotB) + 1),
        receiver.receive(blockB, chain.bft.slotTime(slotB) + 2),
      ]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['applied', 'replaced', 'kept']);
      expect(outcomes[2]?.status).toBe(ForkStatus.IDENTICAL_BLOCK);
      expect(chain.stateDb.root().equals(blockB.header.stateRoot)).toBe(true);
    } finally {
      await chain.close();
    }
  });

  it('as lisk-sdk 6.1 (receive times not kept), keeps the first competitor', async () => {
    const lisk61 = await openChain({ dataPath: join(workDir, 'lisk61'), config, genesisBlock: devGenesisBlock(), now });
    try {
      clock = lisk61.bft.slotTime(slotB) + 1;
      const receiver = new BlockReceiver({
        processor: lisk61.processor,
        chainStore: lisk61.chainStore,
        clock: lisk61.bft,
        maxTransactionsSize,
        rememberReceivedAt: false,
      });
      expect((await receiver.receive(blockA, lisk61.bft.slotTime(slotB))).kind).toBe('applied');
      expect(await receiver.receive(blockB, lisk61.bft.slotTime(slotB) + 1)).toEqual({ kind: 'kept', status: ForkStatus.DISCARD });
      expect(lisk61.processor.tipHeader().id.equals(blockA.header.id)).toBe(true);
      expect(lisk61.stateDb.root().equals(blockA.header.stateRoot)).toBe(true);
    } finally {
      await lisk61.close();
    }
  });
});
