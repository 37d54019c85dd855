/**
 * The operator's controls over block generation (lisk-sdk v6.1.0
 * `framework/src/engine/generator/endpoint.ts`): which validators generate, from which
 * generated info they resume, and the keys they hold. The `generator_*` RPC methods are an
 * adapter over this class; the checks and their order are here.
 *
 * No password, passphrase or private key ever reaches a log line or an error message.
 */
import type { BlockHeader } from '../../chain/block-header.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { encodeLisk32 } from '../../crypto/index.js';
import { InvalidParamsError, NotFoundError, StoreError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { GeneratorKeypair } from './generator-keypair.js';
import { storeGeneratorKeys, unlockGeneratorKeys, unlockedKeypair, type NewGeneratorKeys } from './generator-keys.js';
import { checkResumedInfo, estimateSafeStatus, isSyncedWith, NOT_SYNCED_MESSAGE } from './generator-safety.js';
import type { GeneratedInfo, GeneratorStore, StoredGeneratorKeys } from './generator-store.js';

/** The part of the Forger the controls drive (enabled keypairs live there). */
export interface GeneratorSwitch {
  enable(keypair: GeneratorKeypair): void;
  disable(address: Buffer): void;
  enabledKeypair(address: Buffer): GeneratorKeypair | undefined;
}

export interface GeneratorControlOptions {
  readonly store: GeneratorStore;
  readonly forger: GeneratorSwitch;
  readonly chainStore: Pick<ChainStore, 'tipHeight' | 'finalizedHeight' | 'genesisHeight' | 'getHeaderByHeight'>;
  /** Seconds per slot (genesis.blockTime), for estimateSafeStatus. */
  readonly blockTime: number;
  /** True while the node is catching up with the network; a syncing node refuses to enable. */
  readonly syncing?: () => boolean;
  readonly logger: Logger;
}

/** One validator with a stored generated-info record, and its keypair when it generates. */
export interface GeneratorStatus {
  readonly address: Buffer;
  readonly info: GeneratedInfo;
  readonly enabledKeypair: GeneratorKeypair | undefined;
}

export class GeneratorControl {
  constructor(private readonly options: GeneratorControlOptions) {}

  /** Every validator with a stored info record, in address order (as lisk-sdk lists them). */
  status(): GeneratorStatus[] {
    const { store, forger } = this.options;
    return store.allInfo().map(({ address, info }) => ({ address, info, enabledKeypair: forger.enabledKeypair(address) }));
  }

  /**
   * Sets the generated info of a validator whose keys the node holds (NotFoundError otherwise).
   * Unconditional, as in lisk-sdk: this is the operator's tool to restore a known status.
   */
  setStatus(address: Buffer, info: GeneratedInfo): void {
    const { store, logger } = this.options;
    const lisk32 = encodeLisk32(address);
    if (!store.hasKeys(address)) throw new NotFoundError(`Keys for ${lisk32} is not registered.`);
    store.setInfo(address, info);
    logger.info({ address: lisk32 }, 'Generator status set');
  }

  /**
   * Enables or disables generation for `address`; returns whether it is now enabled. The keys are
   * unlocked with `password` first, also to disable: only the key holder may switch generation.
   * Enabling requires a synced node and `info` equal to the stored info (or all zeros when there
   * is none, which is then stored); each refusal is an InvalidParamsError.
   */
  async updateStatus(address: Buffer, password: string, enable: boolean, info: GeneratedInfo): Promise<boolean> {
    const { store, forger, logger } = this.options;
    const lisk32 = encodeLisk32(address);
    const keys = await unlockGeneratorKeys(store, address, password);
    if (!enable) {
      forger.disable(address);
      logger.info({ address: lisk32 }, 'Block generation disabled');
      return false;
    }
    if (!this.isSynced(info.height, info.maxHeightPrevoted)) throw new InvalidParamsError(NOT_SYNCED_MESSAGE);
    const stored = store.getInfo(address);
    checkResumedInfo(stored, info);
    const keypair = unlockedKeypair(address, keys);
    if (stored === undefined) store.setInfo(address, info);
    // The Forger signs single commits for finalized heights from its next block on.
    forger.enable(keypair);
    logger.info({ address: lisk32 }, 'Block generation enabled');
    return true;
  }

  /** See generator-safety.ts estimateSafeStatus. */
  estimateSafeStatus(timeShutdown: number): GeneratedInfo {
    return estimateSafeStatus(this.options.chainStore, this.options.blockTime, timeShutdown);
  }

  /** Stores new keys for `address`; generation stops for it until updateStatus enables it again. */
  setKeys(address: Buffer, keys: NewGeneratorKeys): void {
    const { store, forger, logger } = this.options;
    storeGeneratorKeys(store, address, keys);
    forger.disable(address);
    logger.info({ address: encodeLisk32(address), type: keys.type }, 'Generator keys set');
  }

  allKeys(): { address: Buffer; keys: StoredGeneratorKeys }[] {
    return this.options.store.allKeys();
  }

  hasKeys(address: Buffer): boolean {
    return this.options.store.hasKeys(address);
  }

  private isSynced(height: number, maxHeightPrevoted: number): boolean {
    if (this.options.syncing?.() === true) return false;
    return isSyncedWith(this.tip(), height, maxHeightPrevoted);
  }

  private tip(): BlockHeader {
    const { chainStore } = this.options;
    const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
    if (header === undefined) throw new StoreError('Store inconsistency: the tip header is missing.');
    return header;
  }
}
