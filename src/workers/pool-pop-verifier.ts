/**
 * The PopVerifier (src/crypto/pop-verifier.ts) on the worker pool: a set of proofs of possession
 * split into one share per thread (each proof costs tens of milliseconds, so even one is worth a
 * trip). If the pool cannot run a share (closed, a thread that died), that share is checked on
 * the calling thread and counted as a fallback: the answers never depend on where they were
 * computed.
 */
import { MainThreadPopVerifier, type PopCheck, type PopVerifier } from '../crypto/pop-verifier.js';
import type { TaskPriority } from './priority-task-queue.js';
import { transferablesOf } from './tasks/packed-bytes.js';
import { blsPopVerifyBatchTask, packPopChecks } from './tasks/bls-pop-verify-batch.js';
import { WorkerPoolError, type WorkerPool } from './worker-pool.js';

export class PoolPopVerifier implements PopVerifier {
  private readonly mainThread = new MainThreadPopVerifier();

  /**
   * `priority`: `consensus` for the proofs a block registers, `reads` for the RPC endpoint that
   * checks a key for a client.
   */
  constructor(
    private readonly pool: Pick<WorkerPool, 'run' | 'threads' | 'recordFallback'>,
    private readonly priority: TaskPriority,
  ) {}

  async verifyProofsOfPossession(checks: readonly PopCheck[]): Promise<boolean[]> {
    if (checks.length === 0) return [];
    const perShare = Math.ceil(checks.length / Math.min(this.pool.threads, checks.length));
    const shares: Promise<boolean[]>[] = [];
    for (let start = 0; start < checks.length; start += perShare) shares.push(this.verifyShare(checks.slice(start, start + perShare)));
    return (await Promise.all(shares)).flat();
  }

  private async verifyShare(checks: readonly PopCheck[]): Promise<boolean[]> {
    const batch = packPopChecks(checks);
    let verdicts: Uint8Array;
    try {
      verdicts = await this.pool.run<Uint8Array>(blsPopVerifyBatchTask.name, batch, {
        priority: this.priority,
        transferList: transferablesOf(batch.publicKeys, batch.proofs),
      });
    } catch (error) {
      if (!(error instanceof WorkerPoolError)) throw error;
      this.pool.recordFallback(blsPopVerifyBatchTask.name, 'pool_failed');
      return this.mainThread.verifyProofsOfPossession(checks);
    }
    return Array.from(verdicts, (verdict) => verdict === 1);
  }
}
