/**
 * The whole dev chain (a real lisk-sdk chain, fixtures/chains/dev) replayed by the CLI twice:
 * with the native SHA-256 and SMT and with BASALT_NATIVE=0 (TypeScript). Replay already stops at
 * the first block whose stateRoot differs, so exit 0 means every block's root matched; the final
 * roots are also compared with each other and with the fixture, and the two stores must hold the
 * same state: every table, byte for byte (the store's bytes must not depend on the implementation;
 * the state tree itself is in memory and rebuilt from those values).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { nativeAvailable } from '../../src/native/index.js';
import { runBasalt } from '../support/cli.js';
import { devReplayArgs, devFinalState } from '../support/dev-chain.js';

interface FinalLine {
  height: number;
  id: string;
  stateRoot: string;
}

describe.skipIf(!nativeAvailable)('dev chain replay, native and TypeScript', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-replay-both-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  const replay = async (native: '1' | '0'): Promise<{ final: FinalLine; dataPath: string }> => {
    const dataPath = join(workDir, `native-${native}`);
    const result = await runBasalt(devReplayArgs(dataPath), { env: { BASALT_NATIVE: native } });
    expect(result.stderr).not.toContain('Mismatch');
    expect(result.code).toBe(0);
    return { final: JSON.parse(result.stdout.trim()) as FinalLine, dataPath };
  };

  /** Every (key, value) pair of the state tables, hex, in key order. */
  const stateTables = (dataPath: string): Record<string, string[]> => {
    const env = open({ path: chainEnvPath(dataPath), ...CHAIN_ENV_OPTIONS, readOnly: true });
    try {
      const tables: Record<string, string[]> = {};
      for (const name of ['state.values', 'state.engine', 'state.diffs', 'state.meta']) {
        const db = env.openDB<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary' });
        tables[name] = [...db.getRange()].map(({ key, value }) => `${key.toString('hex')}:${value.toString('hex')}`);
      }
      return tables;
    } finally {
      void env.close();
    }
  };

  it('reaches the fixture tip with the same state root and the same stored state both ways', async () => {
    const expected = devFinalState().tip;
    const native = await replay('1');
    const typescript = await replay('0');
    expect(native.final).toEqual({ height: expected.height, id: expected.id, stateRoot: expected.stateRoot });
    expect(typescript.final).toEqual(native.final);
    const nativeState = stateTables(native.dataPath);
    expect(nativeState['state.values']!.length).toBeGreaterThan(0);
    expect(stateTables(typescript.dataPath)).toEqual(nativeState);
  }, 120_000);
});
