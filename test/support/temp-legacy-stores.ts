import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { LegacyChainStore } from '../../src/legacy-chain/index.js';

/** Legacy chain stores in LMDB environments under one temporary directory, removed by `dispose`. */
export class TempLegacyStores {
  readonly dir: string;
  private readonly envs: RootDatabase[] = [];

  constructor(prefix = 'basalt-legacy-') {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
  }

  /** A store in the environment `<dir>/<name>.lmdb` (opened again if it was before). */
  open(name: string): LegacyChainStore {
    const env = open({ path: join(this.dir, `${name}.lmdb`), maxDbs: 8 });
    this.envs.push(env);
    return new LegacyChainStore(env);
  }

  async dispose(): Promise<void> {
    for (const env of this.envs.splice(0)) await env.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
