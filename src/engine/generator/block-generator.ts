import { Block } from '../../chain/block.js';
import { BLOCK_VERSION, BlockHeader } from '../../chain/block-header.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { blockEventRoot } from '../../chain/event.js';
import type { Transaction } from '../../chain/transaction.js';
import type { GenesisConfig } from '../../config/genesis-config.js';
import { MESSAGE_TAG_BLOCK_HEADER, signData } from '../../crypto/index.js';
import { areDistinctHeadersContradicting } from '../../chain/contradicting-headers.js';
import { merkleRoot } from '../../merkle/index.js';
import type { StateDb } from '../../state/state-db.js';
import type { BlockExecutor } from '../block-executor.js';
import type { Bft } from '../consensus/bft/bft.js';
import type { CommitPool } from '../consensus/commit-pool.js';
import type { ProcessableTransactions } from '../txpool/transaction-pool.js';
import type { GeneratorKeypair } from './generator-keypair.js';
import { ZERO_GENERATED_INFO, type GeneratorStore } from './generator-store.js';

export interface BlockGeneratorOptions {
  readonly chainStore: ChainStore;
  readonly stateDb: StateDb;
  readonly executor: BlockExecutor;
  readonly bft: Bft;
  readonly commitPool: CommitPool;
  readonly generatorStore: GeneratorStore;
  readonly genesisConfig: GenesisConfig;
}

export interface GeneratedBlock {
  readonly block: Block;
  /** Candidates that can never be in a block (a hook threw): the pool should drop them. */
  readonly invalid: readonly Transaction[];
}

/** Generation refused because it could sign a header that contradicts an earlier one. */
export class UnsafeGenerationError extends Error {}

const EMPTY = Buffer.alloc(0);

/**
 * Builds and signs the next block for a local validator (lisk-sdk generator _generateBlock):
 * BFT properties from the engine state and the validator's generated info, the aggregate
 * commit from the commit pool, assets and transactions through the same BlockExecutor that
 * validation uses, then the roots and the signature. The block still goes through
 * ChainProcessor.processBlock like any other, so production and validation share one path.
 */
export class BlockGenerator {
  constructor(private readonly options: BlockGeneratorOptions) {}

  async generate(keypair: GeneratorKeypair, timestamp: number, candidates: ProcessableTransactions): Promise<GeneratedBlock> {
    const { chainStore, stateDb, executor, bft, commitPool, generatorStore, genesisConfig } = this.options;
    const tip = chainStore.getHeaderByHeight(chainStore.tipHeight()) as BlockHeader;
    const height = tip.height + 1;
    const engineState = stateDb.engineReader;
    const { maxHeightPrevoted } = bft.getHeights(engineState);
    const previous = generatorStore.getInfo(keypair.address) ?? ZERO_GENERATED_INFO;
    const maxHeightGenerated = previous.height;
    this.assertSafe(keypair.address, previous, { height, maxHeightGenerated, maxHeightPrevoted });

    const draft = new BlockHeader({
      version: BLOCK_VERSION,
      timestamp,
      height,
      previousBlockID: tip.id,
      generatorAddress: keypair.address,
      transactionRoot: EMPTY,
      assetRoot: EMPTY,
      eventRoot: EMPTY,
      stateRoot: EMPTY,
      maxHeightPrevoted,
      maxHeightGenerated,
      impliesMaxPrevotes: bft.impliesMaximalPrevotes(engineState, { height, generatorAddress: keypair.address, maxHeightGenerated }),
      validatorsHash: EMPTY,
      aggregateCommit: commitPool.selectAggregateCommit(engineState),
      signature: EMPTY,
    });
    const finalizedHeight = chainStore.finalizedHeight();
    const finalizedHeader = chainStore.getHeaderByHeight(finalizedHeight) as BlockHeader;
    const generated = await executor.generate({
      header: draft,
      moduleBase: stateDb.moduleReader,
      engineBase: engineState,
      maxRemovalHeight: Math.max(finalizedHeader.aggregateCommit.height, genesisConfig.minimumCertifyHeight - 1),
      finalizedHeight,
      maxTransactionsSize: genesisConfig.maxTransactionsSize,
      candidates,
    });

    const unsigned = draft.with({
      transactionRoot: merkleRoot(generated.transactions.map((tx) => tx.id)),
      assetRoot: generated.assets.root(),
      eventRoot: blockEventRoot(generated.events),
      stateRoot: stateDb.prepareUpdate(generated.moduleState.changes()).root,
      validatorsHash: bft.getParameters(generated.engineState, height + 1).validatorsHash,
    });
    const signature = signData(MESSAGE_TAG_BLOCK_HEADER, genesisConfig.chainID, unsigned.signingBytes(), keypair.generatorPrivateKey);
    // Recorded before the block leaves this function: after a crash the node must never sign
    // another header at this height.
    generatorStore.setInfo(keypair.address, { height, maxHeightPrevoted, maxHeightGenerated });
    return { block: new Block(unsigned.with({ signature }), generated.transactions, generated.assets), invalid: generated.invalid };
  }

  /**
   * A validator may only sign a header that does not contradict what it signed before
   * (docs/protocol/bft.md): in particular never twice at a height, which a revert or a restore
   * could otherwise cause.
   */
  private assertSafe(
    address: Buffer,
    previous: { height: number; maxHeightGenerated: number; maxHeightPrevoted: number },
    next: { height: number; maxHeightGenerated: number; maxHeightPrevoted: number },
  ): void {
    if (previous.height === 0) return;
    const contradicting = areDistinctHeadersContradicting(
      { ...previous, generatorAddress: address },
      { ...next, generatorAddress: address },
    );
    if (previous.height >= next.height || contradicting) {
      throw new UnsafeGenerationError(
        `Refusing to generate height ${next.height} for ${address.toString('hex')}: it would contradict its block at height ${previous.height}.`,
      );
    }
  }
}
