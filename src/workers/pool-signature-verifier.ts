/**
 * The default SignatureVerifier (src/crypto/signature-verifier.ts): Ed25519 sets split into
 * batches across the worker pool. Small Ed25519 sets stay on the calling thread, where they cost
 * less than one trip to a worker; BLS checks always go to the pool (one takes about a
 * millisecond, ten times a trip). If the pool fails (a thread died, the pool was closed under
 * us), the work is done on the calling thread instead, so a verifier problem never turns a valid
 * block or transaction into an invalid one.
 */
import type { BlsCheck } from '../crypto/bls-batch.js';
import { MainThreadSignatureVerifier, type Ed25519Check, type SignatureVerifier } from '../crypto/signature-verifier.js';
import { CryptoError } from '../errors.js';
import { blsAggregateTask, type BlsAggregateOutput } from './tasks/bls-aggregate.js';
import { blsVerifyBatchTask, packBlsChecks } from './tasks/bls-verify-batch.js';
import { packBytes, transferablesOf } from './tasks/packed-bytes.js';
import {
  ed25519VerifyBatchTask,
  PACKED_DIGEST_LENGTH,
  PACKED_PUBLIC_KEY_LENGTH,
  PACKED_SIGNATURE_LENGTH,
  type PackedEd25519Batch,
} from './tasks/ed25519-verify-batch.js';
import { silentLogger, type Logger } from '../logger.js';
import { InFlightLimit } from './in-flight-limit.js';
import type { TaskPriority } from './priority-task-queue.js';
import type { FallbackReason, WorkerPool } from './worker-pool.js';

export interface PoolSignatureVerifierOptions {
  /**
   * Sets smaller than this are checked on the calling thread: 16 checks take about 0.9 ms with
   * libsodium, the same order as a pool round trip, so the pool gains nothing below it.
   */
  readonly minPoolSet?: number;
  /** Checks per task: large enough to pay for the 30-100 µs a task costs, small enough to spread. */
  readonly batchSize?: number;
  /** Told, once per distinct cause, that the pool failed and the work ran on this thread. */
  readonly logger?: Logger;
  /**
   * The queue class of this verifier's tasks (default `consensus`): the node holds one verifier
   * for blocks and one, at `reads`, for the transaction pool, so a flood of posted transactions
   * never delays a block's checks.
   */
  readonly priority?: TaskPriority;
  /**
   * Threads that checks asked for ahead of need (verifyEd25519Ahead) may occupy at once; default:
   * every thread, as verifyEd25519. The node keeps the default: a cap at cores − 1, meant to leave
   * the main thread a core while it applies blocks, did not apply blocks faster when measured
   * (docs/architecture.md, "The checks of the blocks ahead").
   */
  readonly aheadThreads?: number;
}

export class PoolSignatureVerifier implements SignatureVerifier {
  private readonly mainThread = new MainThreadSignatureVerifier();
  private readonly minPoolSet: number;
  private readonly batchSize: number;
  private readonly logger: Logger;
  private readonly priority: TaskPriority;
  /** The pool failures already logged: a dead pool fails every task the same way, once is enough. */
  private readonly loggedCauses = new Set<string>();
  /** The cap on ahead checks in flight, when it is below the pool's threads. */
  private readonly aheadLimit: InFlightLimit | undefined;

  constructor(
    private readonly pool: WorkerPool,
    options: PoolSignatureVerifierOptions = {},
  ) {
    this.minPoolSet = options.minPoolSet ?? 16;
    this.batchSize = options.batchSize ?? 128;
    this.logger = options.logger ?? silentLogger;
    this.priority = options.priority ?? 'consensus';
    const aheadThreads = options.aheadThreads ?? pool.threads;
    this.aheadLimit = aheadThreads < pool.threads ? new InFlightLimit(Math.max(1, aheadThreads)) : undefined;
  }

  async verifyEd25519(checks: readonly Ed25519Check[]): Promise<boolean[]> {
    return this.verifyEd25519Set(checks, this.pool.threads);
  }

  /**
   * The same answers as verifyEd25519, for checks wanted later (the blocks after the one
   * executing). With `aheadThreads` below the pool's threads, the set is split for that many
   * threads and no more of these tasks are in flight at once, leaving the other threads to work
   * that is waited for now; otherwise this is verifyEd25519.
   */
  async verifyEd25519Ahead(checks: readonly Ed25519Check[]): Promise<boolean[]> {
    const limit = this.aheadLimit;
    return limit === undefined ? this.verifyEd25519Set(checks, this.pool.threads) : this.verifyEd25519Set(checks, limit.limit, limit);
  }

  /** `checks` in batches for `threads` threads, each task run through `limit` when there is one. */
  private async verifyEd25519Set(checks: readonly Ed25519Check[], threads: number, limit?: InFlightLimit): Promise<boolean[]> {
    if (checks.length < this.minPoolSet) {
      this.fellBack(ed25519VerifyBatchTask.name, 'small_input');
      return this.mainThread.verifyEd25519(checks);
    }
    const answers: boolean[] = new Array<boolean>(checks.length).fill(false);
    // Fields of the wrong width cannot verify (verifyDigest says so too); they are not packed.
    const packable: number[] = [];
    checks.forEach((check, i) => {
      if (
        check.digest.length === PACKED_DIGEST_LENGTH &&
        check.signature.length === PACKED_SIGNATURE_LENGTH &&
        check.publicKey.length === PACKED_PUBLIC_KEY_LENGTH
      ) {
        packable.push(i);
      }
    });
    // Spread evenly: every thread gets work even when the set is only a little over one batch.
    const batches = Math.max(Math.ceil(packable.length / this.batchSize), Math.min(threads, Math.ceil(packable.length / this.minPoolSet)));
    const perBatch = Math.ceil(packable.length / Math.max(1, batches));
    const runs: Promise<void>[] = [];
    for (let start = 0; start < packable.length; start += perBatch) {
      const indexes = packable.slice(start, start + perBatch);
      runs.push(limit === undefined ? this.runBatch(checks, indexes, answers) : limit.run(() => this.runBatch(checks, indexes, answers)));
    }
    await Promise.all(runs);
    return answers;
  }

  private async runBatch(checks: readonly Ed25519Check[], indexes: readonly number[], answers: boolean[]): Promise<void> {
    const batch = pack(checks, indexes);
    let verdicts: Uint8Array;
    try {
      const transfer = [batch.digests.buffer, batch.signatures.buffer, batch.publicKeys.buffer] as ArrayBuffer[];
      verdicts = await this.pool.run<Uint8Array>(ed25519VerifyBatchTask.name, batch, { priority: this.priority, transferList: transfer });
    } catch (error) {
      this.fellBack(ed25519VerifyBatchTask.name, 'pool_failed', error);
      verdicts = Uint8Array.from(await this.mainThread.verifyEd25519(indexes.map((i) => checks[i] as Ed25519Check)), (ok) => (ok ? 1 : 0));
    }
    indexes.forEach((checkIndex, i) => {
      answers[checkIndex] = verdicts[i] === 1;
    });
  }

  async verifyBls(checks: readonly BlsCheck[]): Promise<boolean[]> {
    // One share per thread: each is one multi-pairing when all its checks hold.
    const perShare = Math.ceil(checks.length / Math.max(1, Math.min(this.pool.threads, checks.length)));
    const shares: Promise<boolean[]>[] = [];
    for (let start = 0; start < checks.length; start += perShare) {
      shares.push(this.verifyBlsShare(checks.slice(start, start + perShare)));
    }
    return (await Promise.all(shares)).flat();
  }

  private async verifyBlsShare(checks: readonly BlsCheck[]): Promise<boolean[]> {
    const batch = packBlsChecks(checks);
    try {
      const transfer = [
        batch.aggregate.buffer as ArrayBuffer,
        batch.keyCounts.buffer as ArrayBuffer,
        ...transferablesOf(batch.publicKeys, batch.messages, batch.signatures),
      ];
      const verdicts = await this.pool.run<Uint8Array>(blsVerifyBatchTask.name, batch, { priority: this.priority, transferList: transfer });
      return Array.from(verdicts, (verdict) => verdict === 1);
    } catch (error) {
      this.fellBack(blsVerifyBatchTask.name, 'pool_failed', error);
      return this.mainThread.verifyBls(checks);
    }
  }

  async aggregateBlsSignatures(signatures: readonly Uint8Array[]): Promise<Buffer> {
    let output: BlsAggregateOutput;
    try {
      const packed = packBytes(signatures);
      output = await this.pool.run<BlsAggregateOutput>(blsAggregateTask.name, packed, {
        priority: this.priority,
        transferList: transferablesOf(packed),
      });
    } catch (error) {
      this.fellBack(blsAggregateTask.name, 'pool_failed', error);
      return this.mainThread.aggregateBlsSignatures(signatures);
    }
    if ('refused' in output) throw new CryptoError(output.refused);
    return Buffer.from(output.signature);
  }

  /**
   * Counts work done here instead of in the pool; a pool failure is also logged, once per cause
   * (task and error): the answer stays right, but a pool that keeps failing costs the main thread.
   */
  private fellBack(task: string, reason: FallbackReason, error?: unknown): void {
    this.pool.recordFallback(task, reason);
    if (error === undefined) return;
    const code = (error as { code?: unknown }).code;
    const cause = `${task}: ${typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)}`;
    if (this.loggedCauses.has(cause)) return;
    this.loggedCauses.add(cause);
    this.logger.warn({ task, err: error }, 'The worker pool failed a signature task; it runs on the main thread (logged once per cause)');
  }

  /** The pool belongs to whoever created it; closing the verifier leaves it running. */
  async close(): Promise<void> {}
}

function pack(checks: readonly Ed25519Check[], indexes: readonly number[]): PackedEd25519Batch {
  const count = indexes.length;
  const digests = new Uint8Array(count * PACKED_DIGEST_LENGTH);
  const signatures = new Uint8Array(count * PACKED_SIGNATURE_LENGTH);
  const publicKeys = new Uint8Array(count * PACKED_PUBLIC_KEY_LENGTH);
  indexes.forEach((checkIndex, i) => {
    const check = checks[checkIndex] as Ed25519Check;
    digests.set(check.digest, i * PACKED_DIGEST_LENGTH);
    signatures.set(check.signature, i * PACKED_SIGNATURE_LENGTH);
    publicKeys.set(check.publicKey, i * PACKED_PUBLIC_KEY_LENGTH);
  });
  return { count, digests, signatures, publicKeys };
}
