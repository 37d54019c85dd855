/**
 * Regular Merkle tree (LIP 0031): the transaction root of a block with 1,000 transaction IDs.
 * The reference point is the hashing floor: the same 1,999 SHA-256 calls (1,000 leaf hashes of
 * 33 B and 999 branch hashes of 65 B) on ready-made inputs, with no tree code around them. The
 * ratio (below 1) says how close merkleRoot runs to pure hashing.
 */
import { hash } from 'node:crypto';
import { sha256 } from '../../src/crypto/index.js';
import { merkleRoot } from '../../src/merkle/index.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';

const LEAVES = 1000;

export const rmtSuite: Suite = {
  name: 'rmt',
  summary: 'merkleRoot of 1,000 transaction IDs vs the raw hashing floor',
  async run(progress) {
    progress('rmt: merkleRoot of 1,000 IDs');
    const ids = Array.from({ length: LEAVES }, (_, i) => sha256(Buffer.from(`basalt-bench:tx:${i}`)));
    const leafInputs = ids.map((id) => Buffer.concat([Buffer.from([0x00]), id]));
    const branchInputs = Array.from({ length: LEAVES - 1 }, (_, i) => Buffer.concat([Buffer.from([0x01]), ids[i]!, ids[i + 1]!]));
    const floor = () => {
      let last: Buffer | undefined;
      for (const input of leafInputs) last = hash('sha256', input, 'buffer');
      for (const input of branchInputs) last = hash('sha256', input, 'buffer');
      return last;
    };
    const floorName = 'rmt hashing floor (1,999 SHA-256 calls)';
    const [root, hashingFloor] = await interleavedMsPerOp([
      { name: 'merkleRoot', fn: () => merkleRoot(ids) },
      { name: 'floor', fn: floor },
    ]);
    const results: Measurement[] = [
      { name: 'rmt merkleRoot 1,000 tx IDs', value: root! * 1000, unit: 'µs/op', baseline: floorName },
      { name: floorName, value: hashingFloor! * 1000, unit: 'µs/op' },
    ];
    return results;
  },
};
