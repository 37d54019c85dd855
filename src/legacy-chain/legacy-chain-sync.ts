/**
 * Legacy sync (`legacy.sync: true`): fetches each configured bracket from peers that announce it,
 * walking down from its snapshot block, as lisk-sdk v6.1.0's `LegacyChainHandler`
 * (`framework/src/engine/legacy/legacy_chain_handler.ts`) does:
 *
 * - a bracket whose lowest held height is its start height is complete: it is announced in the
 *   node info at once;
 * - otherwise the node asks a random peer whose node info lists the bracket's snapshot block ID
 *   for the blocks below the lowest one it holds (below the snapshot block at first), stores those
 *   at or above the start height together with the new lowest height, waits 5 s and asks again,
 *   until a batch reaches the start height; the bracket is then announced, and its recorded lowest
 *   height is set back to the first batch's (see `syncBracket`), as lisk-sdk leaves it;
 * - no such peer: wait 12 s and look again; a request that fails is retried at once, and after
 *   more than 10 failures in a row the node waits 12 s; an empty or invalid answer costs the peer
 *   100 and is retried.
 *
 * Basalt checks more of an answer than lisk-sdk before storing it: every block's ID and
 * transaction root (lisk-sdk leaves the highest block of each answer unchecked), contiguous heights
 * and links, and that the highest block is the parent of the lowest block held. The snapshot
 * block itself is never fetched (lisk-sdk's peers answer only the blocks below it).
 */
import { codec } from '../codec/index.js';
import { silentLogger, type Logger } from '../logger.js';
import { decodeLegacyBlock, decodeLegacyHeader, legacyTransactionId, legacyTransactionRoot } from './legacy-block.js';
import type { LegacyBracket } from './legacy-brackets.js';
import type { LegacyBlockToStore, LegacyChainStore } from './legacy-chain-store.js';
import { legacyBlocksAnswerSchema } from './schemas.js';

/** What the sync needs from the P2P network (the node adapts its network to it). */
export interface LegacySyncNetwork {
  /** The connected peers whose node info lists this snapshot block ID among their brackets. */
  peersHolding(snapshotBlockId: Buffer): readonly string[];
  /** getLegacyBlocksFromId `{blockID, snapshotBlockID}`: the answer's bytes; rejects on an error answer or a timeout. */
  requestLegacyBlocks(peerId: string, blockId: Buffer, snapshotBlockId: Buffer): Promise<Buffer>;
  penalize(peerId: string, points: number): void;
  /** Sets the node info's `legacy` list (the complete brackets, by snapshot block ID). */
  announce(snapshotBlockIds: readonly Buffer[]): void;
}

export interface LegacyChainSyncOptions {
  readonly store: LegacyChainStore;
  readonly brackets: readonly LegacyBracket[];
  readonly network: LegacySyncNetwork;
  readonly logger?: Logger;
  /** Pause after a stored batch (5 s as lisk-sdk; peers limit this procedure to 100 per 10 s). */
  readonly batchDelayMs?: number;
  /** Pause when no peer holds the bracket or requests keep failing (12 s as lisk-sdk). */
  readonly retryDelayMs?: number;
  /** Failed requests in a row before the longer pause (10 as lisk-sdk). */
  readonly maxFailedRequests?: number;
  /** [0, 1); Math.random by default. */
  readonly random?: () => number;
}

const PENALTY = 100;

class InvalidAnswer extends Error {}

/** Syncs the configured brackets in the background; see the file comment. */
export class LegacyChainSync {
  private readonly announced: Buffer[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly wakers = new Set<() => void>();
  private stopped = false;
  private readonly logger: Logger;

  constructor(private readonly options: LegacyChainSyncOptions) {
    this.logger = (options.logger ?? silentLogger).child({ engineModule: 'legacy' });
  }

  /** Announces the complete brackets and starts fetching the others; returns without waiting for them. */
  start(): void {
    const { store, brackets } = this.options;
    for (const bracket of brackets) {
      const snapshotBlockId = Buffer.from(bracket.snapshotBlockID, 'hex');
      const info = store.bracketInfo(snapshotBlockId);
      if (info === undefined) continue;
      if (info.lastBlockHeight === bracket.startHeight) {
        this.announce(snapshotBlockId);
        continue;
      }
      const lowest = store.blockIdAtHeight(info.lastBlockHeight);
      this.logger.info({}, `Started syncing legacy blocks for bracket with snapshotBlockID ${bracket.snapshotBlockID}`);
      const run = this.syncBracket(bracket, snapshotBlockId, lowest ?? snapshotBlockId).catch((error: unknown) =>
        this.logger.error({ err: error }, 'Failed to sync block with error'),
      );
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }
  }

  /**
   * Stops every bracket's loop. It does not wait for a request in flight (up to a peer's answer
   * timeout): a loop whose request ends after this touches neither the store nor the network.
   * Stores are written synchronously, so no batch is ever half stored.
   */
  stop(): void {
    this.stopped = true;
    for (const wake of this.wakers) wake();
  }

  /** Resolves when no bracket is being fetched any more (complete, or stopped). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private announce(snapshotBlockId: Buffer): void {
    this.announced.push(snapshotBlockId);
    this.options.network.announce([...this.announced]);
  }

  private async syncBracket(bracket: LegacyBracket, snapshotBlockId: Buffer, from: Buffer): Promise<void> {
    const { network, store } = this.options;
    const maxFailed = this.options.maxFailedRequests ?? 10;
    let lowestId = from;
    let failed = 0;
    let firstBatchLowest: number | undefined;
    while (!this.stopped) {
      const peers = network.peersHolding(snapshotBlockId);
      if (peers.length === 0) {
        this.logger.warn({ method: 'syncBlocks' }, 'No peer found with legacy info.');
        await this.pause(this.options.retryDelayMs ?? 12_000);
        continue;
      }
      const peerId = peers[Math.min(peers.length - 1, Math.floor((this.options.random ?? Math.random)() * peers.length))] as string;
      let answer: Buffer;
      try {
        answer = await network.requestLegacyBlocks(peerId, lowestId, snapshotBlockId);
        failed = 0;
      } catch {
        failed += 1;
        if (failed > maxFailed) {
          this.logger.warn({ peerId, method: 'requestFromPeer' }, `Failed ${maxFailed} times to request from peer.`);
          failed = 0;
          await this.pause(this.options.retryDelayMs ?? 12_000);
        }
        continue;
      }
      if (this.stopped) return;
      let blocks: LegacyBlockToStore[];
      try {
        blocks = this.checkAnswer(answer, bracket, lowestId, snapshotBlockId);
      } catch (error) {
        this.logger.warn({ peerId }, `${(error as Error).message}: Applying a penalty to the peer`);
        network.penalize(peerId, PENALTY);
        continue;
      }
      const lowest = blocks[blocks.length - 1] as LegacyBlockToStore;
      const done = lowest.height <= bracket.startHeight;
      firstBatchLowest ??= lowest.height;
      // What lisk-sdk leaves recorded once a bracket is done is the lowest height of the first
      // batch of the run, not the start height: its sync recurses once per batch and each level
      // records its own batch's lowest height again as the recursion unwinds, the first batch's
      // last. legacy_getLegacyBrackets shows that until the next start, whose bracket step counts
      // the bracket complete (its start block is stored). Basalt records the same.
      const lastBlockHeight = done ? firstBatchLowest : lowest.height;
      store.writeBlocks(
        blocks.filter((block) => block.height >= bracket.startHeight),
        { snapshotBlockId, bracket: { startHeight: bracket.startHeight, snapshotBlockHeight: bracket.snapshotHeight, lastBlockHeight } },
      );
      if (done) {
        this.logger.info({}, `Finished syncing legacy blocks for bracket with snapshotBlockID ${bracket.snapshotBlockID}`);
        this.announce(snapshotBlockId);
        return;
      }
      this.logger.debug({}, `Saved blocks from ${(blocks[0] as LegacyBlockToStore).height} to ${lowest.height}`);
      lowestId = lowest.id;
      await this.pause(this.options.batchDelayMs ?? 5_000);
    }
  }

  /** The answer's blocks, highest first, each checked; throws InvalidAnswer with the reason. */
  private checkAnswer(answer: Buffer, bracket: LegacyBracket, lowestId: Buffer, snapshotBlockId: Buffer): LegacyBlockToStore[] {
    let encoded: Buffer[];
    try {
      encoded = codec.decode<{ blocks: Buffer[] }>(legacyBlocksAnswerSchema, answer).blocks;
    } catch (error) {
      throw new InvalidAnswer((error as Error).message);
    }
    if (encoded.length === 0) throw new InvalidAnswer('Received empty response');
    // The block the answer must end under: the lowest held, or the snapshot block (not held when
    // the sync starts, so only its height is known).
    const held = this.options.store.headerById(lowestId);
    let expected: { height: number; id?: Buffer } = { height: bracket.snapshotHeight - 1 };
    if (held !== undefined) {
      const header = decodeLegacyHeader(held);
      expected = { height: header.height - 1, id: header.previousBlockID };
    } else if (!lowestId.equals(snapshotBlockId)) {
      throw new InvalidAnswer('The lowest block held is missing');
    }
    const blocks: LegacyBlockToStore[] = [];
    for (const bytes of encoded) {
      let block: ReturnType<typeof decodeLegacyBlock>;
      let header: ReturnType<typeof decodeLegacyHeader>;
      try {
        block = decodeLegacyBlock(bytes);
        header = decodeLegacyHeader(block.header);
      } catch (error) {
        throw new InvalidAnswer((error as Error).message);
      }
      const id = block.id.toString('hex');
      if (header.height !== expected.height) {
        throw new InvalidAnswer(`Received block at height ${header.height} is not consecutive to next block ${expected.height + 1}`);
      }
      if (expected.id !== undefined && !block.id.equals(expected.id)) {
        throw new InvalidAnswer(`Received block ${id} is not previous block of the block at height ${expected.height + 1}`);
      }
      const root = legacyTransactionRoot(block.payload.map((transaction) => legacyTransactionId(transaction)));
      if (!root.equals(header.transactionRoot)) {
        throw new InvalidAnswer(
          `Received block has invalid transaction root ${root.toString('hex')}. Expected: ${header.transactionRoot.toString('hex')}`,
        );
      }
      blocks.push({ id: block.id, height: header.height, header: block.header, payload: block.payload });
      expected = { height: header.height - 1, id: header.previousBlockID };
    }
    return blocks;
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}
