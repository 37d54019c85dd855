/**
 * The certificate signatures of a block's cross-chain updates checked in the worker pool before
 * the block executes (BlockWorkAhead, src/engine/block-executor.ts), and handed to the
 * cross-chain update commands (CertificateSignatureChecks,
 * src/modules/interoperability/ccu/certificate.ts), which read them synchronously during
 * execution. Each is one aggregate BLS check over up to a full validator set: milliseconds of
 * pairing that would otherwise run on the main thread.
 *
 * The check is built from the state before the block (the sending chain's validators) and the
 * transaction's params, and its answer is keyed by the whole check (keys, message, signature).
 * Execution builds the check again from the state it sees; if an earlier transaction of the block
 * changed those validators, the key differs and the check runs on the calling thread, counted as
 * a main-thread fallback. So does every check the pool did not answer (a failed pool, an executor
 * without work ahead): the result never depends on whether the pool answered. Blocks being
 * generated get the same work ahead for all their candidates, dry runs at the RPC class.
 */
import { codec } from '../codec/index.js';
import { sha256Concat, verifyBlsCheck, type BlsCheck } from '../crypto/index.js';
import type { SignatureVerifier } from '../crypto/signature-verifier.js';
import type { WorkAheadInput } from '../engine/block-executor.js';
import type { Module } from '../modules/base/index.js';
import {
  certificateSignatureCheck,
  type CertificateSignatureChecks,
  type CrossChainUpdateParams,
} from '../modules/interoperability/index.js';
import { ChecksAhead, type PendingCheck } from './verdicts-ahead.js';

/** The commands that carry a certificate, as module:command (mainchain and sidechain). */
const CROSS_CHAIN_UPDATES = new Set([
  'interoperability:submitMainchainCrossChainUpdate',
  'interoperability:submitSidechainCrossChainUpdate',
]);

type BlsVerifier = Pick<SignatureVerifier, 'verifyBls'>;

/** Where certificate signatures are checked ahead, and how a check done without an answer is counted. */
export interface CertificateVerifiers {
  /** A block's certificates, before it executes (the pool at consensus priority). */
  readonly blocks: BlsVerifier;
  /** A dry-run transaction's certificate (the pool at RPC priority, behind block work). */
  readonly requests?: BlsVerifier;
  /** Counts a check done on the calling thread because no answer was computed ahead. */
  onMiss(): void;
}

export interface CertificateChecksAheadOptions extends CertificateVerifiers {
  /** The chain's modules: the cross-chain update commands' params schemas. */
  readonly modules: readonly Module[];
}

export class CertificateChecksAhead extends ChecksAhead<BlsCheck, BlsVerifier> implements CertificateSignatureChecks {
  constructor(private readonly options: CertificateChecksAheadOptions) {
    super(options);
  }

  protected checksOf(work: WorkAheadInput, genesis: boolean): PendingCheck<BlsCheck>[] {
    if (genesis) return [];
    return this.certificateChecksOf(work).map((check) => ({ key: keyOf(check), input: check }));
  }

  protected verify(verifier: BlsVerifier, inputs: BlsCheck[]): Promise<boolean[]> {
    return verifier.verifyBls(inputs);
  }

  check(check: BlsCheck): boolean {
    const verdict = this.verdicts.get(keyOf(check));
    if (verdict !== undefined) return verdict;
    this.options.onMiss();
    return verifyBlsCheck(check);
  }

  /**
   * The pairing checks the block's cross-chain updates will make, built on the state before it;
   * params or certificates that do not decode, and chains without validators, are left to
   * execution, which fails them the same way without an answer computed ahead.
   */
  private certificateChecksOf(work: WorkAheadInput): BlsCheck[] {
    const state = work.moduleState;
    if (state === undefined) return [];
    const checks: BlsCheck[] = [];
    for (const transaction of work.transactions) {
      if (!CROSS_CHAIN_UPDATES.has(`${transaction.module}:${transaction.command}`)) continue;
      const schema = this.options.modules
        .find((module) => module.name === transaction.module)
        ?.commands.find((command) => command.name === transaction.command)?.schema;
      if (schema === undefined) continue;
      try {
        const params = codec.decode<CrossChainUpdateParams>(schema, transaction.params);
        if (params.certificate.length === 0) continue;
        const check = certificateSignatureCheck(state, params);
        if (check !== undefined) checks.push(check);
      } catch {
        // Left to execution (see above).
      }
    }
    return checks;
  }
}

/** A digest of everything the check's answer depends on: kind, key count, then each part length-prefixed. */
function keyOf(check: BlsCheck): string {
  const parts: Uint8Array[] = [Buffer.from([check.kind === 'verify' ? 0 : 1]), uint32(check.publicKeys.length)];
  for (const part of [...check.publicKeys, check.message, check.signature]) parts.push(uint32(part.length), part);
  return sha256Concat(...parts).toString('hex');
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
