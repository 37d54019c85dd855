/**
 * Cross-chain updates as the node executes them. Two CCUs on the real interop mainchain
 * (test/fixtures/chains/interop-dev/mainchain) before height 49: the largest one lisk-sdk's limits
 * allow (lib/largest-ccu.ts: a certificate signed by 199 validators, a full validators update,
 * token transfers filling maxTransactionsSize), and the fixture's own CCU of height 49. Each is
 * verified and executed by the submitMainchainCrossChainUpdate command, with the certificate's
 * aggregate signature checked ahead in the worker pool (the node's way: CertificateChecksAhead on
 * the node's verifiers), and with everything on the main thread. Rows, in ms (median):
 * `main thread` is what the block's execution costs the main thread once the pool has answered,
 * `end to end` adds the wait for the pool's answer. Target (README "Performance targets"): the
 * largest CCU in at most 20 ms with its BLS work in the pool. Then the chain connector's delay from
 * a new certificate to its CCU on a Basalt pair, with and without RPC load (lib/connector-delay.ts,
 * about 3 minutes).
 */
import { CERTIFICATE_CHECKS_ON_THIS_THREAD } from '../../src/modules/interoperability/ccu/certificate.js';
import type { Command } from '../../src/modules/base/index.js';
import { VerifyStatus } from '../../src/modules/base/index.js';
import type { CrossChainUpdateCommand, CrossChainUpdateParams } from '../../src/modules/interoperability/index.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { offThreadWork } from '../../src/node.js';
import { CertificateChecksAhead } from '../../src/node/certificate-checks-ahead.js';
import type { MemoryState } from '../../src/state/memory-state.js';
import { WorkerPool } from '../../src/workers/index.js';
import { ModuleHarness } from '../../test/support/module-harness.js';
import { ccuAt, interopBlock, interopMainchainConfig, mainchainStatesBefore } from '../../test/support/interop-mainchain.js';
import type { Measurement } from '../lib/figure.js';
import { buildLargestCcu } from '../lib/largest-ccu.js';
import { measureConnectorDelay } from '../lib/connector-delay.js';
import { PoolCounters } from '../lib/pool-counters.js';
import type { Suite } from '../lib/suite.js';

const HEIGHT = 49;
const TARGET_MS = 20;

interface Ccu {
  readonly transaction: Transaction;
  readonly params: CrossChainUpdateParams;
  readonly state: MemoryState;
}

export const interopSuite: Suite = {
  name: 'interop',
  summary: `largest CCU and the fixture CCU of height ${HEIGHT} (verify + execute, certificate in the pool vs main thread); connector certificate-to-CCU delay on a Basalt pair`,
  async run(progress, options) {
    progress(`interop: replaying the interop mainchain to height ${HEIGHT - 1}`);
    const { states, command } = await mainchainStatesBefore([HEIGHT]);
    const before = states.get(HEIGHT) as MemoryState;
    const { header } = interopBlock(HEIGHT);
    const fixture = ccuAt(HEIGHT);
    progress('interop: building and signing the largest CCU (199 validators)');
    const config = interopMainchainConfig();
    const largest = buildLargestCcu(before, fixture, config.genesis.chainID, header.timestamp, config.genesis.maxTransactionsSize);
    const iterations = options.quick ? 12 : 40;
    const pool = new WorkerPool();
    const results: Measurement[] = [];
    try {
      const ccuCommand = command as unknown as CrossChainUpdateCommand & Command<CrossChainUpdateParams>;
      const cases: [string, Ccu][] = [
        [
          `interop largest CCU (199-validator certificate and update, ${largest.messages} transfer CCMs, ${largest.transaction.bytes.length} B)`,
          largest,
        ],
        [`interop fixture CCU of height ${HEIGHT} (${fixture.transaction.bytes.length} B)`, { ...fixture, state: before }],
      ];
      for (const [name, ccu] of cases) {
        progress(`interop: ${name}`);
        const counters = new PoolCounters(pool);
        const timing = await timeCcu(ccuCommand, ccu, header, pool, iterations);
        counters.stop();
        const mainName = `${name} verify+execute, all on the main thread`;
        const target = name.startsWith('interop largest') ? ` (target ≤ ${TARGET_MS} ms)` : '';
        const pooledName = `${name} verify+execute, certificate in the pool: main thread${target}`;
        results.push(
          { name: pooledName, value: timing.pooledMainMs, unit: 'ms' },
          { name: `${name} verify+execute, certificate in the pool: end to end`, value: timing.pooledTotalMs, unit: 'ms' },
          ...counters.rows(pooledName),
          { name: mainName, value: timing.mainMs, unit: 'ms' },
        );
      }
    } finally {
      await pool.close();
    }
    results.push(...(await measureConnectorDelay({ quick: options.quick, progress })));
    return results;
  },
};

/**
 * Median times of verify + execute of `ccu` on a fresh overlay of its state, alternating the two
 * ways each iteration (so that a busy neighbour slows both alike). Every run must pass
 * verification and execute without error, and the pooled runs must find the pool's verdict.
 */
async function timeCcu(
  command: CrossChainUpdateCommand & Command<CrossChainUpdateParams>,
  ccu: Ccu,
  header: ModuleHarness['header'],
  pool: WorkerPool,
  iterations: number,
): Promise<{ mainMs: number; pooledMainMs: number; pooledTotalMs: number }> {
  let missed = 0;
  const verifiers = offThreadWork(pool).certificateVerifiers;
  const ahead = new CertificateChecksAhead({
    modules: [{ name: 'interoperability', commands: [command] }] as never,
    blocks: verifiers.blocks,
    onMiss: () => {
      missed += 1;
      verifiers.onMiss();
    },
  });
  const run = async (): Promise<void> => {
    const harness = new ModuleHarness({ base: ccu.state, header });
    const verification = await command.verify?.(harness.commandVerifyContext(ccu.transaction, ccu.params));
    if (verification?.status !== VerifyStatus.OK) throw new Error(`interop: the CCU fails verification: ${verification?.error?.message}`);
    await command.execute(harness.commandExecuteContext(ccu.transaction, ccu.params));
    if (harness.events.events().some((event) => event.name === 'invalidCertificateSignature')) {
      throw new Error('interop: the certificate does not verify.');
    }
  };
  const main: number[] = [];
  const pooledMain: number[] = [];
  const pooledTotal: number[] = [];
  // Two warm-up rounds: key caches on both sides, JIT.
  for (let i = -2; i < iterations; i += 1) {
    command.useCertificateSignatureChecks(CERTIFICATE_CHECKS_ON_THIS_THREAD);
    let start = performance.now();
    await run();
    if (i >= 0) main.push(performance.now() - start);

    command.useCertificateSignatureChecks(ahead);
    const work = { transactions: [ccu.transaction], moduleState: ccu.state };
    start = performance.now();
    await ahead.prepare(work, false);
    const ready = performance.now();
    try {
      await run();
    } finally {
      ahead.release(work);
    }
    const end = performance.now();
    if (i >= 0) {
      pooledMain.push(end - ready);
      pooledTotal.push(end - start);
    }
  }
  command.useCertificateSignatureChecks(CERTIFICATE_CHECKS_ON_THIS_THREAD);
  if (missed > 0) throw new Error(`interop: ${missed} certificate checks had no verdict from the pool.`);
  return { mainMs: median(main), pooledMainMs: median(pooledMain), pooledTotalMs: median(pooledTotal) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
