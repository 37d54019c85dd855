/**
 * Proofs of possession off the main thread, with real threads: the pool's answers are popVerify's
 * (good, bad and malformed pairs), a pool that cannot run them falls back to this thread and
 * counts it, the answers a block needs are computed before it executes and read back by the
 * validators module, a pair nobody computed ahead is checked here and counted, and the
 * validateBLSKey endpoint answers through the pool.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/chain/block.js';
import { codec } from '../../src/codec/index.js';
import { MainThreadPopVerifier, type PopCheck } from '../../src/crypto/index.js';
import { silentLogger } from '../../src/logger.js';
import type { Module } from '../../src/modules/base/index.js';
import { registerValidatorParamsSchema } from '../../src/modules/pos/schemas.js';
import { ValidatorsModule } from '../../src/modules/validators/index.js';
import { offThreadWork } from '../../src/node.js';
import { PopChecksAhead } from '../../src/node/pop-checks-ahead.js';
import { PoolPopVerifier, WorkerPool } from '../../src/workers/index.js';
import { makeHeader, ModuleHarness, testGenesisConfig } from '../support/module-harness.js';
import { genesisValidators, type GenesisValidatorKeys } from '../unit/modules/validators/keys.js';

const [alice, bob, carol] = genesisValidators() as [GenesisValidatorKeys, GenesisValidatorKeys, GenesisValidatorKeys];
const TASK = 'bls.popVerifyBatch';

function pair(keys: GenesisValidatorKeys, proofOf: GenesisValidatorKeys = keys): PopCheck {
  return { publicKey: keys.blsKey, proof: proofOf.proofOfPossession };
}

/** A block holding pos:registerValidator transactions for `registrations` (only what the checks read). */
function blockRegistering(registrations: readonly [GenesisValidatorKeys, GenesisValidatorKeys][]): Block {
  const transactions = registrations.map(([keys, proofOf], i) => ({
    module: 'pos',
    command: 'registerValidator',
    params: codec.encode(registerValidatorParamsSchema, {
      name: `validator_${i}`,
      blsKey: keys.blsKey,
      proofOfPossession: proofOf.proofOfPossession,
      generatorKey: keys.generatorKey,
    }),
  }));
  return { transactions, assets: { getAsset: () => undefined } } as unknown as Block;
}

const modules = [{ name: 'pos', commands: [{ name: 'registerValidator', schema: registerValidatorParamsSchema }] }] as unknown as Module[];

describe('proofs of possession in the worker pool', () => {
  const pool = new WorkerPool({ threads: 2 });
  afterAll(async () => {
    await pool.close();
  });

  const fallbacks = (reason: string) => pool.fallbackCounts.get(`${TASK}/${reason}`)?.count ?? 0;

  it('answers as popVerify does, for good, swapped and malformed pairs', async () => {
    const checks: PopCheck[] = [
      pair(alice),
      pair(alice, bob),
      pair(bob),
      { publicKey: alice.blsKey.subarray(1), proof: alice.proofOfPossession },
      { publicKey: Buffer.alloc(48), proof: Buffer.alloc(96) },
      pair(carol),
    ];
    const expected = await new MainThreadPopVerifier().verifyProofsOfPossession(checks);
    expect(expected).toEqual([true, false, true, false, false, true]);
    const before = pool.taskCounts.get(TASK) ?? 0;
    expect(await new PoolPopVerifier(pool, 'consensus').verifyProofsOfPossession(checks)).toEqual(expected);
    // One share per thread.
    expect((pool.taskCounts.get(TASK) ?? 0) - before).toBe(2);
  });

  it('checks on this thread, counted, when the pool cannot run the set', async () => {
    const closed = new WorkerPool({ threads: 1 });
    await closed.close();
    expect(await new PoolPopVerifier(closed, 'reads').verifyProofsOfPossession([pair(alice), pair(bob, alice)])).toEqual([true, false]);
    expect(closed.fallbackCounts.get(`${TASK}/pool_failed`)?.count).toBe(1);
  });

  it('computes a block’s answers before it executes; a pair not computed ahead is checked here and counted', async () => {
    const ahead = new PopChecksAhead({
      modules,
      blocks: new PoolPopVerifier(pool, 'consensus'),
      requests: new PoolPopVerifier(pool, 'reads'),
      genesisWithoutBlsKeys: false,
      onMiss: () => pool.recordFallback(TASK, 'no_verdict'),
    });
    const block = blockRegistering([
      [alice, alice],
      [bob, carol],
    ]);
    const tasks = pool.taskCounts.get(TASK) ?? 0;
    await ahead.prepare(block, false);
    expect(pool.taskCounts.get(TASK)).toBeGreaterThan(tasks);
    const misses = fallbacks('no_verdict');
    expect(ahead.check(alice.blsKey, alice.proofOfPossession)).toBe(true);
    expect(ahead.check(bob.blsKey, carol.proofOfPossession)).toBe(false);
    expect(fallbacks('no_verdict')).toBe(misses);
    expect(ahead.check(carol.blsKey, carol.proofOfPossession)).toBe(true);
    expect(fallbacks('no_verdict')).toBe(misses + 1);
    // Once the block is executed its answers are dropped.
    ahead.release(block);
    expect(ahead.check(alice.blsKey, alice.proofOfPossession)).toBe(true);
    expect(fallbacks('no_verdict')).toBe(misses + 2);
  });

  it('prepares a request’s pairs at the RPC class, and leaves the pairs to execution when the verifier fails', async () => {
    const requests = new PoolPopVerifier(pool, 'reads');
    const failing = {
      verifyProofsOfPossession: async () => {
        throw new Error('no answers');
      },
    };
    const ahead = new PopChecksAhead({
      modules,
      blocks: failing,
      requests,
      genesisWithoutBlsKeys: false,
      onMiss: () => pool.recordFallback(TASK, 'no_verdict'),
    });
    const dryRun = blockRegistering([[alice, alice]]);
    await ahead.forRequests().prepare(dryRun, false);
    const misses = fallbacks('no_verdict');
    expect(ahead.check(alice.blsKey, alice.proofOfPossession)).toBe(true);
    expect(fallbacks('no_verdict')).toBe(misses);
    ahead.release(dryRun);
    const block = blockRegistering([[bob, bob]]);
    await ahead.prepare(block, false);
    expect(ahead.check(bob.blsKey, bob.proofOfPossession)).toBe(true);
    expect(fallbacks('no_verdict')).toBe(misses + 1);
    ahead.release(block);
  });

  it('answers validators_validateBLSKey through the pool', async () => {
    const module = new ValidatorsModule();
    module.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
    const { popVerifiers } = offThreadWork(pool);
    module.method.useProofOfPossessionChecks(
      new PopChecksAhead({ modules, ...popVerifiers, genesisWithoutBlsKeys: false, onMiss: () => popVerifiers.onMiss() }),
    );
    const harness = new ModuleHarness();
    const validate = (keys: GenesisValidatorKeys, proofOf: GenesisValidatorKeys) =>
      module.endpoints.validateBLSKey?.handle({
        state: harness.state,
        chainID: testGenesisConfig.chainID,
        logger: silentLogger,
        header: makeHeader(),
        params: { blsKey: keys.blsKey.toString('hex'), proofOfPossession: proofOf.proofOfPossession.toString('hex') },
      });
    const tasks = pool.taskCounts.get(TASK) ?? 0;
    expect(await validate(alice, alice)).toEqual({ valid: true });
    expect(await validate(alice, bob)).toEqual({ valid: false });
    expect(pool.taskCounts.get(TASK)).toBe(tasks + 2);
  });
});
