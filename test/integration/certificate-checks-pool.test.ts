/**
 * The certificate signatures of cross-chain updates checked in the worker pool ahead of their
 * block, with real BLS and real threads: on the real CCUs of the lisk-sdk 6.1 interop pair the
 * pool's verdicts are the calling thread's (genuine and tampered certificates), a check nobody
 * computed ahead is made here and counted, executing a CCU with and without answers ahead leaves
 * the same events and state, and both chains replay to lisk-sdk's blocks and events with every
 * certificate answered by the pool and none checked on the main thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToJSON } from '../../src/chain/event.js';
import { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { verifyBlsCheck, type BlsCheck } from '../../src/crypto/index.js';
import type { Command } from '../../src/modules/base/index.js';
import {
  certificateSchema,
  certificateSignatureCheck,
  type CrossChainUpdateCommand,
  crossChainUpdateParamsSchema,
  decodeCertificate,
  type CrossChainUpdateParams,
} from '../../src/modules/interoperability/index.js';
import { offThreadWork, openChain } from '../../src/node.js';
import { CertificateChecksAhead } from '../../src/node/certificate-checks-ahead.js';
import type { MemoryState } from '../../src/state/memory-state.js';
import { PoolSignatureVerifier, WorkerPool } from '../../src/workers/index.js';
import {
  formatDivergence,
  interopBlockLines,
  interopChainConfig,
  interopEventsByHeight,
  interopGenesisBlock,
  replayInteropBlocks,
  type InteropChainName,
} from '../support/interop-chain.js';
import { ModuleHarness } from '../support/module-harness.js';
import { ccuAt, interopBlock, mainchainStatesBefore } from '../support/interop-mainchain.js';

const TASK = 'bls.verifyBatch';
/** The first CCU (certificate 1), and the one of height 49 with a full validators update. */
const HEIGHTS = [8, 49] as const;

describe('certificate signatures in the worker pool', () => {
  const pool = new WorkerPool({ threads: 2 });
  let states: Map<number, MemoryState>;
  let command: Command<CrossChainUpdateParams>;

  beforeAll(async () => {
    ({ states, command } = await mainchainStatesBefore(HEIGHTS));
  }, 120_000);

  afterAll(async () => {
    await pool.close();
  });

  const misses = () => pool.fallbackCounts.get(`${TASK}/no_verdict`)?.count ?? 0;
  const ahead = () =>
    new CertificateChecksAhead({
      modules: [{ name: 'interoperability', commands: [command] }] as never,
      blocks: new PoolSignatureVerifier(pool),
      onMiss: () => pool.recordFallback(TASK, 'no_verdict'),
    });

  /** The CCU of `height` with its certificate signed over by the certificate of `other`. */
  function tampered(height: number, other: number): { transaction: Transaction; params: CrossChainUpdateParams } {
    const { transaction, params } = ccuAt(height);
    const certificate = {
      ...decodeCertificate(params.certificate),
      signature: decodeCertificate(ccuAt(other).params.certificate).signature,
    };
    const changed = { ...params, certificate: codec.encode(certificateSchema, certificate) };
    return {
      transaction: new Transaction({ ...transaction, params: codec.encode(crossChainUpdateParamsSchema, changed) }),
      params: changed,
    };
  }

  it('gives the calling thread’s verdicts for genuine and tampered certificates, without a main-thread check', async () => {
    for (const [height, other] of [
      [8, 49],
      [49, 8],
    ] as const) {
      const state = states.get(height) as MemoryState;
      const cases = [ccuAt(height), tampered(height, other)];
      const checks = cases.map(({ params }) => certificateSignatureCheck(state, params) as BlsCheck);
      const expected = checks.map(verifyBlsCheck);
      expect(expected).toEqual([true, false]);
      const checksAhead = ahead();
      const work = { transactions: cases.map(({ transaction }) => transaction), moduleState: state };
      const tasks = pool.taskCounts.get(TASK) ?? 0;
      await checksAhead.prepare(work, false);
      expect(pool.taskCounts.get(TASK)).toBeGreaterThan(tasks);
      const before = misses();
      expect(checks.map((check) => checksAhead.check(check))).toEqual(expected);
      expect(misses()).toBe(before);
      // Once released, the same checks are made here, counted, with the same verdicts.
      checksAhead.release(work);
      expect(checks.map((check) => checksAhead.check(check))).toEqual(expected);
      expect(misses()).toBe(before + 2);
    }
  });

  it('prepares a dry run’s certificate with the request verifier, into the same answers', async () => {
    let asked = { blocks: 0, requests: 0 };
    const count = (side: keyof typeof asked) => ({
      verifyBls: (checks: readonly BlsCheck[]) => {
        asked = { ...asked, [side]: asked[side] + checks.length };
        return new PoolSignatureVerifier(pool, { priority: side === 'blocks' ? 'consensus' : 'reads' }).verifyBls(checks);
      },
    });
    const checksAhead = new CertificateChecksAhead({
      modules: [{ name: 'interoperability', commands: [command] }] as never,
      blocks: count('blocks'),
      requests: count('requests'),
      onMiss: () => pool.recordFallback(TASK, 'no_verdict'),
    });
    const state = states.get(49) as MemoryState;
    const { transaction, params } = ccuAt(49);
    const work = { transactions: [transaction], moduleState: state };
    await checksAhead.forRequests().prepare(work, false);
    expect(asked).toEqual({ blocks: 0, requests: 1 });
    const before = misses();
    expect(checksAhead.check(certificateSignatureCheck(state, params) as BlsCheck)).toBe(true);
    expect(misses()).toBe(before);
    checksAhead.release(work);
  });

  it('executes a CCU to the same events and state with answers ahead, without them, and with the verifier failing', async () => {
    const runs: string[] = [];
    for (const { transaction, params } of [ccuAt(49), tampered(49, 8)]) {
      const results: string[] = [];
      for (const mode of ['ahead', 'missing', 'failing'] as const) {
        const checks =
          mode === 'failing'
            ? new CertificateChecksAhead({
                modules: [{ name: 'interoperability', commands: [command] }] as never,
                blocks: {
                  verifyBls: async () => {
                    throw new Error('no answers');
                  },
                },
                onMiss: () => pool.recordFallback(TASK, 'no_verdict'),
              })
            : ahead();
        const state = states.get(49) as MemoryState;
        const work = { transactions: [transaction], moduleState: state };
        if (mode !== 'missing') await checks.prepare(work, false);
        const harness = new ModuleHarness({ base: state, header: interopBlock(49).header });
        (command as unknown as CrossChainUpdateCommand).useCertificateSignatureChecks(checks);
        let outcome = 'ok';
        try {
          await command.execute(harness.commandExecuteContext(transaction, params));
        } catch (error) {
          outcome = (error as Error).message;
        } finally {
          checks.release(work);
        }
        const changes = harness.state.changes().map(({ key, value }) => `${key.toString('hex')}=${value?.toString('hex')}`);
        results.push(JSON.stringify({ outcome, events: harness.events.events().map(eventToJSON), changes }));
      }
      expect(new Set(results).size).toBe(1);
      runs.push(results[0] as string);
    }
    expect(runs[0]).toContain('"outcome":"ok"');
    expect(runs[1]).toContain('Certificate is not a valid aggregate signature.');
    expect(runs[1]).toContain('invalidCertificateSignature');
  });

  for (const name of ['mainchain', 'sidechain'] as InteropChainName[]) {
    it(`replays the ${name} with every certificate answered ahead by the pool`, async () => {
      const dataPath = mkdtempSync(join(tmpdir(), `basalt-ccu-pool-${name}-`));
      const work = offThreadWork(pool);
      let answeredAhead = 0;
      let missed = 0;
      const chain = await openChain({
        dataPath,
        config: interopChainConfig(name),
        genesisBlock: interopGenesisBlock(name),
        signatureVerifier: work.signatureVerifier,
        certificateVerifiers: {
          blocks: {
            verifyBls: async (checks) => {
              answeredAhead += checks.length;
              return work.signatureVerifier.verifyBls(checks);
            },
          },
          onMiss: () => {
            missed += 1;
          },
        },
      });
      try {
        const divergence = await replayInteropBlocks(chain, interopBlockLines(name), interopEventsByHeight(name));
        expect(formatDivergence(name, divergence)).toBe(`${name}: every block as recorded`);
      } finally {
        await chain.close();
        rmSync(dataPath, { recursive: true, force: true });
      }
      expect(answeredAhead).toBeGreaterThan(10);
      expect(missed).toBe(0);
    }, 180_000);
  }
});
