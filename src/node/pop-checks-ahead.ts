/**
 * Proofs of possession checked in the worker pool before the block that registers them executes
 * (BlockWorkAhead, src/engine/block-executor.ts), and handed to the validators module
 * (ProofOfPossessionChecks, src/modules/validators/pop-checks.ts), which reads them synchronously
 * during execution. Each check costs tens of milliseconds on the thread that runs it; the
 * genesis block of a chain registers every initial validator, so on the main thread the node
 * would stop serving for as long.
 *
 * Which pairs a block checks: the keys registered by pos:registerValidator (LIP 0057) and
 * legacy:registerKeys (Lisk Core v4's legacy module), and at genesis the validators of the pos
 * asset (lisk-sdk pos/module.ts finalizeGenesisState), all through the validators module's
 * registerValidatorKeys / setValidatorBLSKey. A pair missed here (a block being generated, a
 * command not listed) is checked on the calling thread and counted as a main-thread fallback, so
 * the result never depends on this list.
 */
import { codec } from '../codec/index.js';
import { popVerify, type PopCheck, type PopVerifier } from '../crypto/index.js';
import type { WorkAheadInput } from '../engine/block-executor.js';
import type { Module } from '../modules/base/index.js';
import type { ProofOfPossessionChecks } from '../modules/validators/index.js';
import { ChecksAhead, type PendingCheck } from './verdicts-ahead.js';

/** Commands whose params carry a `blsKey` and its `proofOfPossession`, as module:command. */
const KEY_REGISTRATIONS = new Set(['pos:registerValidator', 'legacy:registerKeys']);

interface KeyAndProof {
  readonly blsKey: Buffer;
  readonly proofOfPossession: Buffer;
}

export interface PopChecksAheadOptions {
  /** The chain's modules: the commands' params schemas and the pos genesis asset schema. */
  readonly modules: readonly Module[];
  /** Checks a block's pairs (the pool at consensus priority). */
  readonly blocks: PopVerifier;
  /** Checks a pair a request asks about (the pool at RPC priority). */
  readonly requests: PopVerifier;
  /**
   * Whether the genesis validators register without BLS keys (pos `useInvalidBLSKey` on a
   * mainchain): then there is nothing to check at genesis.
   */
  readonly genesisWithoutBlsKeys: boolean;
  /** Told of each check done on the calling thread for want of an answer computed ahead. */
  readonly onMiss: () => void;
}

export class PopChecksAhead extends ChecksAhead<PopCheck, PopVerifier> implements ProofOfPossessionChecks {
  constructor(private readonly options: PopChecksAheadOptions) {
    super(options);
  }

  protected checksOf(work: WorkAheadInput, genesis: boolean): PendingCheck<PopCheck>[] {
    return this.pairsOf(work, genesis).map((pair) => ({
      key: keyOf(pair.blsKey, pair.proofOfPossession),
      input: { publicKey: pair.blsKey, proof: pair.proofOfPossession },
    }));
  }

  protected verify(verifier: PopVerifier, inputs: PopCheck[]): Promise<boolean[]> {
    return verifier.verifyProofsOfPossession(inputs);
  }

  check(blsKey: Buffer, proofOfPossession: Buffer): boolean {
    const verdict = this.verdicts.get(keyOf(blsKey, proofOfPossession));
    if (verdict !== undefined) return verdict;
    this.options.onMiss();
    return popVerify(blsKey, proofOfPossession);
  }

  async checkOffThread(blsKey: Buffer, proofOfPossession: Buffer): Promise<boolean> {
    const [valid] = await this.options.requests.verifyProofsOfPossession([{ publicKey: blsKey, proof: proofOfPossession }]);
    return valid === true;
  }

  /** The pairs `work` will check, in order; params that do not decode are left to execution. */
  private pairsOf(work: WorkAheadInput, genesis: boolean): KeyAndProof[] {
    const pairs: KeyAndProof[] = [];
    if (genesis && !this.options.genesisWithoutBlsKeys) pairs.push(...this.genesisValidators(work));
    for (const transaction of work.transactions) {
      if (!KEY_REGISTRATIONS.has(`${transaction.module}:${transaction.command}`)) continue;
      const schema = this.moduleNamed(transaction.module)?.commands.find((command) => command.name === transaction.command)?.schema;
      if (schema === undefined) continue;
      try {
        pairs.push(keyAndProof(codec.decode<Partial<KeyAndProof>>(schema, transaction.params)));
      } catch {
        // Execution fails this transaction the same way without an answer computed ahead.
      }
    }
    return pairs.filter((pair) => pair.blsKey.length > 0);
  }

  private genesisValidators(work: WorkAheadInput): KeyAndProof[] {
    const pos = this.moduleNamed('pos');
    const bytes = work.assets?.getAsset('pos');
    if (pos?.genesisAssetSchema === undefined || bytes === undefined) return [];
    try {
      const asset = codec.decode<{ validators?: Partial<KeyAndProof>[] }>(pos.genesisAssetSchema, bytes);
      return (asset.validators ?? []).map(keyAndProof);
    } catch {
      return [];
    }
  }

  private moduleNamed(name: string): Module | undefined {
    return this.options.modules.find((module) => module.name === name);
  }
}

function keyAndProof(params: Partial<KeyAndProof>): KeyAndProof {
  return { blsKey: params.blsKey ?? Buffer.alloc(0), proofOfPossession: params.proofOfPossession ?? Buffer.alloc(0) };
}

function keyOf(blsKey: Uint8Array, proofOfPossession: Uint8Array): string {
  return `${Buffer.from(blsKey.buffer, blsKey.byteOffset, blsKey.byteLength).toString('hex')}:${Buffer.from(proofOfPossession.buffer, proofOfPossession.byteOffset, proofOfPossession.byteLength).toString('hex')}`;
}
