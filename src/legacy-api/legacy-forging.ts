/**
 * What PUT/GET /api/node/status/forging do (cli_migration.md §6.2 "Toggle semantics"), on top of
 * the engine's generator: the Forger holds the enabled keypairs, the generator store the
 * generator info. This file only decides whether a toggle is allowed and with which keys.
 *
 * Order of checks of a toggle: the delegate is configured → its passphrase decrypts with the
 * password and gives the requested public key → the account is a validator → disable, or enable
 * when the node is synced. Every refusal is a ForgingToggleError (404 at the HTTP edge).
 */
import type { BlockHeader } from '../chain/block-header.js';
import { addressFromPublicKey as addressOf, decryptPassphraseV3, deriveLegacyValidatorKeys, encodeLisk32, legacyKeyPairFromPassphrase } from '../crypto/index.js';
import { keypairFromPlainKeys, type GeneratorKeypair } from '../engine/generator/generator-keypair.js';
import { ZERO_GENERATED_INFO, type GeneratedInfo, type GeneratorStore } from '../engine/generator/generator-store.js';
import type { Logger } from '../logger.js';
import type { HashOnionStore } from '../modules/random/hash-onion-store.js';
import { validatorStore } from '../modules/pos/stores.js';
import type { StateReader } from '../state/state-view.js';
import type { ForgerInfoFile } from './forger-info-file.js';
import { laterInfo } from './forger-info-file.js';
import { installHashOnion } from './hash-onion-resume.js';
import { ForgingToggleError } from './legacy-api-error.js';
import type { LegacyDelegate } from './legacy-forging-config.js';
import { DELEGATE_NOT_FOUND_MESSAGE, delegateNotConfiguredMessage, INVALID_PASSWORD_MESSAGE, NOT_SYNCED_MESSAGE } from './responses.js';

/** The part of the engine's Forger a toggle drives (the same calls generator_updateStatus makes). */
export interface ForgingSwitch {
  enable(keypair: GeneratorKeypair): void;
  disable(address: Buffer): void;
  isEnabled(address: Buffer): boolean;
}

export interface LegacyForgingOptions {
  readonly delegates: readonly LegacyDelegate[];
  readonly forger: ForgingSwitch;
  readonly generatorStore: Pick<GeneratorStore, 'getInfo' | 'setInfo'>;
  readonly forgerInfo: ForgerInfoFile;
  readonly hashOnionStore: HashOnionStore;
  /** The tip header (the sync rule compares the generator info with it). */
  readonly tip: () => BlockHeader;
  readonly moduleState: () => StateReader;
  /** The integer of the BLS key path m/12381/134/<chainIndex>/99999 (§2.2): the chain ID's first byte. */
  readonly chainIndex: number;
  /** True while catching up with the network; a standalone node is synced. */
  readonly syncing: () => boolean;
  readonly logger: Logger;
}

/** One delegate's entry; a Core 3.x (address-only) entry shows its lisk32 address until its key is known. */
export type ForgingStatus = { readonly forging: boolean; readonly publicKey: string } | { readonly forging: boolean; readonly address: string };

/**
 * lisk-sdk Consensus.isSynced (§1.6 step 4), applied to the info the delegate resumes from: it
 * must lie behind the tip, so the node never signs a header contradicting one it signed before.
 */
export function isSyncedFor(info: GeneratedInfo, tip: Pick<BlockHeader, 'version' | 'height' | 'maxHeightPrevoted'>): boolean {
  if (tip.version === 0) return info.height <= tip.height && info.maxHeightPrevoted <= tip.height;
  return info.maxHeightPrevoted < tip.maxHeightPrevoted || (info.maxHeightPrevoted === tip.maxHeightPrevoted && info.height < tip.height);
}

export class LegacyForging {
  /** Public keys of address-only (Core 3.x) entries, learned when their passphrase decrypts. */
  private readonly learnedKeys = new Map<string, string>();

  constructor(private readonly options: LegacyForgingOptions) {}

  private publicKeyOf(delegate: LegacyDelegate): string | undefined {
    return delegate.publicKey ?? this.learnedKeys.get(delegate.address.toString('hex'));
  }

  /** `[{forging, publicKey}]` for every configured delegate, or only the one asked for (§6.2). */
  status(publicKey?: string): ForgingStatus[] {
    const entries = this.options.delegates.flatMap(delegate => {
      const key = this.publicKeyOf(delegate);
      // A Core 3.x entry lists its address until a toggle has shown its public key.
      const forging = this.options.forger.isEnabled(delegate.address);
      const entry: ForgingStatus = key === undefined ? { forging, address: encodeLisk32(delegate.address) } : { forging, publicKey: key };
      return [entry];
    });
    return publicKey === undefined ? entries : entries.filter(entry => 'publicKey' in entry && entry.publicKey === publicKey);
  }

  /** The configured entry PUT names: exact publicKey match, or a 3.x address entry of that key. */
  private find(publicKey: string): LegacyDelegate | undefined {
    const exact = this.options.delegates.find(delegate => delegate.publicKey === publicKey);
    if (exact !== undefined || publicKey !== publicKey.toLowerCase()) return exact;
    const address = legacyAddress(publicKey);
    return this.options.delegates.find(delegate => delegate.publicKey === undefined && delegate.address.equals(address));
  }

  async toggle(publicKey: string, password: string, forging: boolean): Promise<{ publicKey: string; forging: boolean }> {
    const { forger, logger } = this.options;
    const delegate = this.find(publicKey);
    if (delegate === undefined) throw new ForgingToggleError(delegateNotConfiguredMessage(publicKey));
    let passphrase: string;
    try {
      passphrase = decryptPassphraseV3(delegate.encryptedPassphrase, password);
    } catch {
      throw new ForgingToggleError(INVALID_PASSWORD_MESSAGE);
    }
    const keyPair = legacyKeyPairFromPassphrase(passphrase);
    if (keyPair.publicKey.toString('hex') !== publicKey.toLowerCase() || !legacyAddress(publicKey).equals(delegate.address)) {
      throw new ForgingToggleError(INVALID_PASSWORD_MESSAGE);
    }
    const { address } = delegate;
    if (delegate.publicKey === undefined) this.learnedKeys.set(address.toString('hex'), publicKey);
    if (!validatorStore.has(this.options.moduleState(), address)) throw new ForgingToggleError(DELEGATE_NOT_FOUND_MESSAGE);
    const lisk32 = encodeLisk32(address);

    if (!forging) {
      forger.disable(address);
      this.saveForgerInfo();
      logger.info({ address: lisk32 }, 'Legacy API: block generation disabled');
      return { publicKey, forging: false };
    }
    if (forger.isEnabled(address)) return { publicKey, forging: true }; // idempotent
    if (this.options.syncing()) throw new ForgingToggleError(NOT_SYNCED_MESSAGE);
    const stored = this.options.generatorStore.getInfo(address);
    const info = laterInfo(stored, this.options.forgerInfo.get(address)) ?? ZERO_GENERATED_INFO;
    if (!isSyncedFor(info, this.options.tip())) throw new ForgingToggleError(NOT_SYNCED_MESSAGE);

    const keys = deriveLegacyValidatorKeys(passphrase, this.options.chainIndex);
    const keypair = keypairFromPlainKeys(address, keys);
    if (stored === undefined || !sameInfo(stored, info)) this.options.generatorStore.setInfo(address, info);
    if (delegate.hashOnion !== undefined) {
      const installed = installHashOnion(this.options.hashOnionStore, this.options.moduleState(), address, delegate.hashOnion);
      if (installed) logger.info({ address: lisk32 }, 'Legacy API: hash onion from the legacy config installed');
    }
    forger.enable(keypair);
    this.saveForgerInfo();
    logger.info({ address: lisk32 }, 'Legacy API: block generation enabled');
    return { publicKey, forging: true };
  }

  /** Mirrors the generator info of the configured delegates into forger_info.json. */
  saveForgerInfo(): void {
    const updates = this.options.delegates.flatMap(({ address }) => {
      const info = this.options.generatorStore.getInfo(address);
      return info === undefined ? [] : [{ address, info }];
    });
    if (updates.length > 0) this.options.forgerInfo.save(updates);
  }
}

function legacyAddress(publicKey: string): Buffer {
  return addressOf(Buffer.from(publicKey, 'hex'));
}

const sameInfo = (a: GeneratedInfo, b: GeneratedInfo): boolean =>
  a.height === b.height && a.maxHeightPrevoted === b.maxHeightPrevoted && a.maxHeightGenerated === b.maxHeightGenerated;
