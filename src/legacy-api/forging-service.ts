/**
 * The forging toggle of the legacy API (docs/protocol/legacy-forging-api.md) on top of the
 * engine's generator: the same Forger switch and GeneratorStore info that `generator_*` drives,
 * so forging status and v4 generator status are one thing.
 *
 * Order of checks, as Lisk Core 2.x: entry by publicKey (exact, case-sensitive string match) →
 * decrypt with the password → derived key must equal publicKey → account must be a validator →
 * enable (refused while syncing) or disable. Every failure is a ToggleError (HTTP 404). Nothing
 * about keys is persisted (lost on restart, as in 2.x); the generator info is the store's.
 */
import { pbkdf2 } from 'node:crypto';
import { createDecipheriv } from 'node:crypto';
import { promisify } from 'node:util';
import { addressFromPublicKey } from '../crypto/address.js';
import { decodeHexField } from '../crypto/hex-input.js';
import { parseEncryptedPassphraseV3 } from '../crypto/passphrase-v3.js';
import { deriveLegacyValidatorKeys, type ValidatorKeys } from '../crypto/validator-keys.js';
import type { BlockHeader } from '../chain/block-header.js';
import type { GeneratorKeypair } from '../engine/generator/generator-keypair.js';
import { isSyncedWith, NOT_SYNCED_MESSAGE, sameGeneratedInfo } from '../engine/generator/generator-safety.js';
import { ZERO_GENERATED_INFO, type GeneratedInfo, type GeneratorStore } from '../engine/generator/generator-store.js';
import type { Logger } from '../logger.js';
import type { HashOnionStore } from '../modules/random/hash-onion-store.js';
import type { StateReader } from '../state/state-view.js';
import { laterInfo, type ForgerInfoFile } from './forger-info-file.js';
import { installHashOnion } from './hash-onion-resume.js';
import type { LegacyDelegate } from './legacy-config.js';
import type { UpdateForgingRequest } from './validation-v3.js';

const pbkdf2Async = promisify(pbkdf2);

export const INVALID_PASSWORD_MESSAGE = 'Invalid password and public key combination';
export const DELEGATE_NOT_FOUND_MESSAGE = 'Delegate not found';

/** A refused toggle: Lisk Core 2.x answers 404 `{message}` for all of them. */
export class ToggleError extends Error {}

/** The part of the engine's Forger the toggle drives (see engine/generator/generator-control.ts). */
export interface ForgerSwitch {
  enable(keypair: GeneratorKeypair): void;
  disable(address: Buffer): void;
  isEnabled(address: Buffer): boolean;
}

export interface ForgingServiceOptions {
  readonly delegates: readonly LegacyDelegate[];
  readonly forger: ForgerSwitch;
  readonly store: Pick<GeneratorStore, 'getInfo' | 'setInfo'>;
  /** The integer of the BLS key path m/12381/134/<chainIndex>/99999 (as keys:create --add-legacy). */
  readonly chainIndex: number;
  /** True when the address is a registered validator (pos) — 2.x "account not a delegate". */
  readonly isValidator: (address: Buffer) => boolean;
  /** True while catching up with the network; a standalone node is synced. */
  readonly syncing: () => boolean;
  /** The tip header: Lisk Core 3.x's enable checks the claimed heights against it. */
  readonly tip?: () => BlockHeader | undefined;
  /** `forger_info.json` (copied from another node): resumed from on enable, rewritten after each toggle. */
  readonly forgerInfo?: Pick<ForgerInfoFile, 'get' | 'save'>;
  /** The random module's onion store and the chain state: a configured hashOnion becomes the seed-reveal source. */
  readonly hashOnions?: { readonly store: HashOnionStore; readonly state: () => StateReader };
  readonly logger: Logger;
}

export interface ForgingEntry {
  readonly forging: boolean;
  readonly publicKey?: string;
  /** Only for a 3.x entry that names an address and no public key. */
  readonly address?: string;
}

/**
 * PBKDF2 on libuv's thread pool: 1 000 000 iterations take about a second, which the event loop
 * (block production, RPC) must not wait for. Same algorithm as crypto/passphrase-v3.ts.
 */
async function decryptPassphrase(encrypted: string, password: string): Promise<string | undefined> {
  const parsed = parseEncryptedPassphraseV3(encrypted);
  const tag = decodeHexField(parsed.tag, 'Tag');
  const key = await pbkdf2Async(password, decodeHexField(parsed.salt, 'Salt'), parsed.iterations, 32, 'sha256');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, decodeHexField(parsed.iv, 'IV'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(decodeHexField(parsed.cipherText, 'Cipher text')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  } finally {
    key.fill(0);
  }
}

const addressOfEntry = (delegate: LegacyDelegate): Buffer =>
  delegate.publicKey !== undefined
    ? addressFromPublicKey(Buffer.from(delegate.publicKey, 'hex'))
    : Buffer.from(delegate.address as string, 'hex');

export class ForgingService {
  constructor(private readonly options: ForgingServiceOptions) {}

  /** Every configured delegate with whether its keys are enabled (GET /node/status/forging). */
  status(publicKey?: string): ForgingEntry[] {
    const entries = publicKey === undefined ? this.options.delegates : this.options.delegates.filter((d) => d.publicKey === publicKey);
    return entries.map((delegate) => {
      const forging = this.options.forger.isEnabled(addressOfEntry(delegate));
      return delegate.publicKey !== undefined
        ? { forging, publicKey: delegate.publicKey }
        : { forging, address: delegate.address as string };
    });
  }

  /** The entry a PUT names: by public key, or for 3.x entries by the address of that key. */
  private find(publicKey: string): LegacyDelegate | undefined {
    const byKey = this.options.delegates.find((d) => d.publicKey === publicKey);
    if (byKey !== undefined) return byKey;
    // 3.x entries carry no public key; an exact lower-case key is still required, as in 2.x.
    if (publicKey !== publicKey.toLowerCase()) return undefined;
    const address = addressFromPublicKey(Buffer.from(publicKey, 'hex')).toString('hex');
    return this.options.delegates.find((d) => d.publicKey === undefined && d.address === address);
  }

  /** Enables or disables block generation for one delegate; throws ToggleError when refused. */
  async toggle(publicKey: string, password: string, forging: boolean): Promise<ForgingEntry> {
    const { forger, logger } = this.options;
    const delegate = this.find(publicKey);
    if (delegate === undefined) throw new ToggleError(`Delegate with publicKey: ${publicKey} not found`);
    const passphrase = await decryptPassphrase(delegate.encryptedPassphrase, password);
    if (passphrase === undefined) throw new ToggleError(INVALID_PASSWORD_MESSAGE);
    const keys = deriveLegacyValidatorKeys(passphrase, this.options.chainIndex);
    if (keys.publicKey.toString('hex') !== publicKey) throw new ToggleError(INVALID_PASSWORD_MESSAGE);
    const address = addressFromPublicKey(keys.publicKey);
    if (!this.options.isValidator(address)) throw new ToggleError(DELEGATE_NOT_FOUND_MESSAGE);
    if (!forging) {
      forger.disable(address);
      this.saveForgerInfo([address]);
      logger.info({ address: address.toString('hex') }, 'Legacy API: forging disabled');
      return { publicKey, forging: false };
    }
    if (this.options.syncing()) throw new ToggleError(NOT_SYNCED_MESSAGE);
    this.enable(delegate, keys, address);
    return { publicKey, forging: true };
  }

  /**
   * Lisk Core 3.x's `updateForgingStatus` (lisk-sdk v5 `framework/src/node/forger/forger.ts`):
   * entry by address → decrypt → the derived address must match → disable, or enable with the
   * operator's claim of what the delegate last forged (height, maxHeightPreviouslyForged,
   * maxHeightPrevoted), which must lie behind the tip and equal the stored info (or be all zeros
   * when none is stored) unless `overwrite`. The stored info is the v4 generator info
   * (maxHeightGenerated is 3.x's maxHeightPreviouslyForged). Throws ToggleError with 3.x's texts.
   */
  async updateForgingStatus(request: UpdateForgingRequest): Promise<{ address: string; forging: boolean }> {
    const { forger, logger } = this.options;
    const address = Buffer.from(request.address, 'hex');
    const hex = address.toString('hex');
    const delegate = this.options.delegates.find((d) => addressOfEntry(d).equals(address));
    if (delegate === undefined) throw new ToggleError(`Delegate with address: ${hex} not found`);
    const passphrase = await decryptPassphrase(delegate.encryptedPassphrase, request.password);
    if (passphrase === undefined) throw new ToggleError(INVALID_PASSWORD_MESSAGE);
    const keys = deriveLegacyValidatorKeys(passphrase, this.options.chainIndex);
    const derived = addressFromPublicKey(keys.publicKey);
    if (!derived.equals(address)) {
      throw new ToggleError(`Invalid keypair: ${derived.toString('hex')}  and address: ${hex} combination`);
    }
    // A registered validator is Basalt's own condition: v4 keys of a non-validator never forge.
    if (!this.options.isValidator(address)) throw new ToggleError(`Delegate with address: ${hex} not found`);
    if (!request.forging) {
      forger.disable(address);
      this.saveForgerInfo([address]);
      logger.info({ address: hex }, 'Legacy API: forging disabled');
      return { address: hex, forging: false };
    }
    const claimed: GeneratedInfo = {
      height: request.height,
      maxHeightGenerated: request.maxHeightPreviouslyForged,
      maxHeightPrevoted: request.maxHeightPrevoted,
    };
    const tip = this.options.tip?.();
    if (this.options.syncing() || tip === undefined || !isSyncedWith(tip, claimed.height, claimed.maxHeightPrevoted)) {
      throw new ToggleError(NOT_SYNCED_MESSAGE);
    }
    const stored = laterInfo(this.options.store.getInfo(address), this.options.forgerInfo?.get(address));
    if (request.overwrite !== true) {
      if (stored !== undefined && !sameGeneratedInfo(stored, claimed)) {
        const current = {
          height: stored.height,
          maxHeightPrevoted: stored.maxHeightPrevoted,
          maxHeightPreviouslyForged: stored.maxHeightGenerated,
        };
        throw new ToggleError(`Failed to enable forging due to contradicting forger info. Current stored: ${JSON.stringify(current)}`);
      }
      if (stored === undefined && !sameGeneratedInfo(ZERO_GENERATED_INFO, claimed)) {
        throw new ToggleError('Failed to enable forging due to missing forger info.');
      }
    }
    this.enable(delegate, keys, address, request.overwrite === true || stored === undefined ? claimed : stored);
    return { address: hex, forging: true };
  }

  /**
   * Auto-load (`force` with `defaultPassword`): every delegate is enabled at start; one that
   * does not decrypt to its own key, or is no validator, stops the start, as in Lisk Core.
   */
  async enableAll(defaultPassword: string): Promise<void> {
    for (const delegate of this.options.delegates) {
      const id = delegate.publicKey ?? delegate.address;
      const passphrase = await decryptPassphrase(delegate.encryptedPassphrase, defaultPassword);
      const keys = passphrase === undefined ? undefined : deriveLegacyValidatorKeys(passphrase, this.options.chainIndex);
      const address = keys === undefined ? undefined : addressFromPublicKey(keys.publicKey);
      const matches =
        keys !== undefined &&
        address !== undefined &&
        (delegate.publicKey !== undefined
          ? keys.publicKey.toString('hex') === delegate.publicKey
          : address.toString('hex') === delegate.address);
      if (!matches || keys === undefined || address === undefined)
        throw new ToggleError(`Invalid encryptedPassphrase for ${id}. Check forging.defaultPassword and the entry.`);
      if (!this.options.isValidator(address)) throw new ToggleError(`Account ${id} is not a delegate.`);
      this.enable(delegate, keys, address);
    }
  }

  /** `info`: what generation resumes from, when the caller already settled it (3.x's enable). */
  private enable(delegate: LegacyDelegate, keys: ValidatorKeys, address: Buffer, info?: GeneratedInfo): void {
    const { forger, store, logger } = this.options;
    // The v4 generator info resumes from the later of the store's and forger_info.json's
    // (a file copied from another node must not let this one sign below what that one signed);
    // with neither it starts at zero, as generator_updateStatus requires for a first enable.
    const resumed = info ?? laterInfo(store.getInfo(address), this.options.forgerInfo?.get(address)) ?? ZERO_GENERATED_INFO;
    store.setInfo(address, resumed);
    const onion = delegate.hashOnion;
    if (onion !== undefined && this.options.hashOnions !== undefined) {
      // The same onion keeps the delegate's reveals valid on a new node.
      const { store: onions, state } = this.options.hashOnions;
      installHashOnion(onions, state(), address, {
        count: onion.count,
        distance: onion.distance,
        hashes: onion.hashes.map((hash) => Buffer.from(hash, 'hex')),
      });
    }
    forger.enable({
      address,
      generatorKey: keys.generatorKey,
      generatorPrivateKey: keys.generatorPrivateKey,
      blsKey: keys.blsKey,
      blsSecretKey: keys.blsPrivateKey,
    });
    this.saveForgerInfo([address]);
    logger.info({ address: address.toString('hex') }, 'Legacy API: forging enabled');
  }

  /** Mirrors the generator info of `addresses` (default: every configured delegate) into forger_info.json. */
  saveForgerInfo(addresses: readonly Buffer[] = this.options.delegates.map(addressOfEntry)): void {
    const { forgerInfo, store, logger } = this.options;
    if (forgerInfo === undefined) return;
    const updates = addresses.flatMap((address) => {
      const info = store.getInfo(address);
      return info === undefined ? [] : [{ address, info }];
    });
    if (updates.length === 0) return;
    try {
      forgerInfo.save(updates);
    } catch (error) {
      // Forging goes on: the generator store is the record; the file is its portable copy.
      logger.warn({ code: (error as NodeJS.ErrnoException).code }, 'Legacy API: forger_info.json could not be written');
    }
  }
}
