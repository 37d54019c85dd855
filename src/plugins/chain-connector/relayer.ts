/**
 * The relayer: on each new block of its own chain it records what a later CCU may need (the
 * header, its aggregate commit, the BFT validators, the messages sent towards the receiving
 * chain and the inclusion proof of the outbox root), then asks the receiving chain what it has
 * certified and received so far and, when there is something to deliver, builds a CCU
 * (ccu-builder.ts), signs it with the relayer key and posts it (lisk-sdk v6.1.0
 * framework-plugins/lisk-framework-chain-connector-plugin/src/chain_connector_plugin.ts does the
 * same job; LIP 0053 says what a CCU holds).
 *
 * Blocks are handled one at a time in arrival order, off the node's path: the listener only
 * queues the height. An unreachable receiving chain only postpones CCUs (receiving-chain.ts).
 * One CCU is in flight at a time: the next one waits until the receiving chain's nonce of the
 * relayer account has passed it (or until RESEND_AFTER_BLOCKS blocks went by without that). Both
 * chains produce at slot boundaries, so a new block here often arrives just before the receiving
 * chain's block that includes the CCU in flight: the relayer then checks again every
 * IN_FLIGHT_RECHECK_MS until that CCU is in or a newer block comes, instead of leaving the new
 * certificate for the next block.
 */
import type { AggregateCommit, BlockHeader } from '../../chain/block-header.js';
import type { EventProps } from '../../chain/event.js';
import type { Transaction } from '../../chain/transaction.js';
import { lisk32FromPublicKey, decodeLisk32, publicKeyFromPrivateKey, sha256 } from '../../crypto/index.js';
import { decryptMessageWithPassword } from '../../crypto/encrypted-message.js';
import { parseEncryptedMessage } from '../../crypto/encrypted-message-string.js';
import { DecryptionError, InvalidParamsError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { outboxRootStore } from '../../modules/interoperability/stores.js';
import {
  buildCcu,
  type CcmsAtHeight,
  type CcuParams,
  type LastCertificate,
  type OutboxRootWitness,
  type ValidatorsData,
} from './ccu-builder.js';
import { outboxMessagesOf } from './ccm-events.js';
import { signedCcuTransaction } from './ccu-transaction.js';
import type { ChainConnectorConfig } from './connector-config.js';
import type { ConnectorRecords, ConnectorStore } from './connector-store.js';
import { type ReceivingChain, ReceivingChainRpcError } from './receiving-chain.js';

/** A CCU still not included after this many own blocks is built and sent again. */
export const RESEND_AFTER_BLOCKS = 10;
/** While a CCU is in flight, how often the relayer asks again whether it was included. */
export const IN_FLIGHT_RECHECK_MS = 250;

/** What the relayer reads of its own chain. */
export interface SendingChain {
  readonly chainID: Buffer;
  tipHeight(): number;
  header(height: number): BlockHeader | undefined;
  events(height: number): readonly EventProps[] | undefined;
  invoke<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
}

interface ChainAccountJSON {
  lastCertificate: { height: number; timestamp: number; stateRoot: string; validatorsHash: string };
}
interface ChannelJSON {
  inbox: { size: number };
  outbox: { size: number };
}
interface BftParametersJSON {
  validators: { address: string; bftWeight: string; blsKey: string }[];
  certificateThreshold: string;
  validatorsHash: string;
}
interface ProveJSON {
  proof: { siblingHashes: string[]; queries: { bitmap: string }[] };
}

/** Thrown by `authorize` for a password that does not decrypt the relayer key. */
export class RelayerKeyPasswordError extends InvalidParamsError {
  constructor() {
    super('Chain connector: the password does not decrypt the configured encryptedPrivateKey.');
  }
}

export class ChainConnector {
  private records: ConnectorRecords;
  private queue: Promise<void> = Promise.resolve();
  private privateKey: Buffer | undefined;
  private inFlight: { nonce: bigint; height: number } | undefined;
  private lastSkipReason = '';
  private recheck: ReturnType<typeof setTimeout> | undefined;
  private readonly receivingChainIDHex: string;
  private readonly ownChainIDHex: string;

  constructor(
    private readonly config: ChainConnectorConfig,
    private readonly store: ConnectorStore,
    private readonly sending: SendingChain,
    private readonly receiving: ReceivingChain,
    private readonly logger: Logger,
  ) {
    this.records = store.read();
    this.receivingChainIDHex = config.receivingChainID.toString('hex');
    this.ownChainIDHex = sending.chainID.toString('hex');
  }

  /** The recorded data as the endpoints serve it. */
  get recorded(): Readonly<ConnectorRecords> {
    return this.records;
  }

  get keyEnabled(): boolean {
    return this.privateKey !== undefined;
  }

  /** Queues a new block; resolves when it and every block queued before it were handled. */
  newBlock(height: number): Promise<void> {
    this.stopRecheck();
    this.queue = this.queue
      .then(() => this.handleBlock(height))
      .catch((error: unknown) => {
        this.logger.warn({ height, err: (error as Error).message }, 'Chain connector: failed while handling a new block');
      });
    return this.queue;
  }

  /** Queues the removal of what was recorded for a block that was reverted. */
  deleteBlock(height: number): Promise<void> {
    this.queue = this.queue.then(() => this.forget(height));
    return this.queue;
  }

  /** Waits for the queued blocks; a pending check of the CCU in flight is dropped. */
  idle(): Promise<void> {
    this.stopRecheck();
    return this.queue;
  }

  private stopRecheck(): void {
    if (this.recheck !== undefined) clearTimeout(this.recheck);
    this.recheck = undefined;
  }

  /** Relays for the tip `height` again soon, unless a newer block (which relays itself) comes first. */
  private recheckLater(height: number): void {
    this.stopRecheck();
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      const header = this.sending.tipHeight() === height ? this.sending.header(height) : undefined;
      if (header === undefined) return;
      this.queue = this.queue
        .then(() => this.relay(header))
        .catch((error: unknown) => {
          this.logger.warn({ height, err: (error as Error).message }, 'Chain connector: failed while relaying again');
        });
    }, IN_FLIGHT_RECHECK_MS);
    this.recheck.unref?.();
  }

  /**
   * Decrypts the relayer key with `password` and keeps it in memory (enable), or checks the
   * password and forgets the key (disable), as lisk-sdk's `authorize` does. The key never leaves
   * this object: not in logs, not in errors.
   */
  async authorize(password: string, enable: boolean): Promise<{ result: string }> {
    let plain: Buffer;
    try {
      plain = await decryptMessageWithPassword(parseEncryptedMessage(this.config.encryptedPrivateKey), password);
    } catch (error) {
      if (error instanceof DecryptionError) throw new RelayerKeyPasswordError();
      throw new InvalidParamsError('Chain connector: the configured encryptedPrivateKey is not a valid encrypted message.');
    }
    const key = Buffer.from(plain.toString('utf8'), 'hex');
    plain.fill(0);
    if (enable) {
      if (key.length !== 64)
        throw new InvalidParamsError('Chain connector: the decrypted relayer key is not a 64-byte Ed25519 private key.');
      this.privateKey = key;
    } else {
      key.fill(0);
      this.privateKey?.fill(0);
      this.privateKey = undefined;
    }
    return { result: `Successfully ${enable ? 'enabled' : 'disabled'} the chain connector plugin.` };
  }

  private async handleBlock(height: number): Promise<void> {
    const header = this.sending.header(height);
    if (header === undefined) return; // already reverted
    await this.record(header);
    await this.relay(header);
  }

  private async record(header: BlockHeader): Promise<void> {
    const { height } = header;
    const sentAt = (at: number) => outboxMessagesOf(this.sending.events(at) ?? [], this.sending.chainID, this.config.receivingChainID);
    const ccms = sentAt(height);
    // The channel and the proof are read at the tip; when the chain already moved past this block
    // (syncing), the outbox size is taken back over the later blocks and the proof is unknown.
    const tip = this.sending.tipHeight();
    const channel = await this.sending
      .invoke<ChannelJSON>('interoperability_getChannel', { chainID: this.receivingChainIDHex })
      .catch(() => undefined);
    let outboxSize = channel?.outbox.size ?? 0;
    for (let later = height + 1; later <= tip; later += 1) outboxSize -= sentAt(later).length;
    const proven = tip === height;
    const record: CcmsAtHeight = {
      ccms,
      height,
      inclusionProof: proven ? await this.outboxRootWitness() : { bitmap: Buffer.alloc(0), siblingHashes: [] },
      outboxSize,
      ...(!proven && { unproven: true }),
    };
    const byHeight = <T extends { height: number }>(list: T[], item: T) =>
      [...list.filter((entry) => entry.height !== item.height), item].sort((a, b) => a.height - b.height);
    const records = this.records;
    const blockHeaders = byHeight(records.blockHeaders, header);
    const ccmRecords = byHeight(records.ccmRecords, record);
    const commit = header.aggregateCommit;
    const aggregateCommits =
      commit.aggregationBits.length > 0 || commit.certificateSignature.length > 0
        ? byHeight(records.aggregateCommits, commit as AggregateCommit)
        : records.aggregateCommits;
    const bft = await this.sending.invoke<BftParametersJSON>('consensus_getBFTParametersActiveValidators', { height });
    const validatorsHash = Buffer.from(bft.validatorsHash, 'hex');
    let validatorsHashPreimage = records.validatorsHashPreimage;
    if (!validatorsHashPreimage.some((data) => data.validatorsHash.equals(validatorsHash))) {
      const data: ValidatorsData = {
        certificateThreshold: BigInt(bft.certificateThreshold),
        validatorsHash,
        validators: bft.validators.map((validator) => ({
          address: decodeLisk32(validator.address),
          blsKey: Buffer.from(validator.blsKey, 'hex'),
          bftWeight: BigInt(validator.bftWeight),
        })),
      };
      validatorsHashPreimage = [...validatorsHashPreimage, data];
    }
    this.save({ blockHeaders, ccmRecords, aggregateCommits, validatorsHashPreimage });
  }

  /** The inclusion proof of the outbox root towards the receiving chain in the current state root (state_prove). */
  private async outboxRootWitness(): Promise<OutboxRootWitness> {
    const key = outboxRootStore.stateKey(sha256(this.config.receivingChainID));
    try {
      const { proof } = await this.sending.invoke<ProveJSON>('state_prove', { queryKeys: [key.toString('hex')] });
      return {
        bitmap: Buffer.from(proof.queries[0]?.bitmap ?? '', 'hex'),
        siblingHashes: proof.siblingHashes.map((hash) => Buffer.from(hash, 'hex')),
      };
    } catch {
      return { bitmap: Buffer.alloc(0), siblingHashes: [] };
    }
  }

  private async relay(header: BlockHeader): Promise<void> {
    if ((await this.receiving.connection()) === undefined) return;
    let account: ChainAccountJSON;
    try {
      account = await this.receiving.invoke<ChainAccountJSON>('interoperability_getChainAccount', { chainID: this.ownChainIDHex });
    } catch {
      this.skip('this chain is not registered on the receiving chain yet');
      return;
    }
    const lastCertificate: LastCertificate = {
      height: account.lastCertificate.height,
      timestamp: account.lastCertificate.timestamp,
      stateRoot: Buffer.from(account.lastCertificate.stateRoot, 'hex'),
      validatorsHash: Buffer.from(account.lastCertificate.validatorsHash, 'hex'),
    };
    const nodeInfo = await this.sending.invoke<{ syncing: boolean }>('system_getNodeInfo');
    if (nodeInfo.syncing || header.height - lastCertificate.height < this.config.ccuFrequency) return;
    const channel = await this.receiving.invoke<ChannelJSON>('interoperability_getChannel', { chainID: this.ownChainIDHex });
    this.prune(lastCertificate, channel.inbox.size);
    if (this.privateKey === undefined) {
      this.skip('no relayer key enabled (chainConnector_authorize)');
      return;
    }
    const publicKey = publicKeyFromPrivateKey(this.privateKey);
    const { nonce: nonceText } = await this.receiving.invoke<{ nonce: string }>('auth_getAuthAccount', {
      address: lisk32FromPublicKey(publicKey),
    });
    const nonce = BigInt(nonceText);
    if (this.inFlight !== undefined && this.inFlight.nonce >= nonce && header.height - this.inFlight.height < RESEND_AFTER_BLOCKS) {
      if (header.height === this.sending.tipHeight()) this.recheckLater(header.height);
      return;
    }
    const { maxHeightCertified } = await this.sending.invoke<{ maxHeightCertified: number }>('consensus_getBFTHeights');
    const records = this.records;
    const outcome = buildCcu({
      sendingChainID: this.sending.chainID,
      lastCertificate,
      maxHeightCertified,
      registrationHeight: this.config.registrationHeight,
      aggregateCommits: records.aggregateCommits,
      headerAt: (height) => records.blockHeaders.find((entry) => entry.height === height),
      validatorsData: (hash) => records.validatorsHashPreimage.find((data) => data.validatorsHash.equals(hash)),
      ccmRecords: records.ccmRecords,
      inboxSizeOnReceivingChain: channel.inbox.size,
      maxCCUSize: this.config.maxCCUSize,
    });
    if ('skipped' in outcome) {
      this.skip(outcome.skipped);
      return;
    }
    const transaction = await this.signedCcu(outcome.built.params, nonce, publicKey);
    if (!this.config.isSaveCCU) {
      try {
        await this.receiving.invoke('txpool_postTransaction', { transaction: transaction.bytes.toString('hex') });
      } catch (error) {
        if (!(error instanceof ReceivingChainRpcError)) throw error;
        // Refused by the receiving chain's pool: said once per reason, tried again on the next block.
        this.skip(`the receiving chain refused the CCU: ${error.message}`);
        return;
      }
      this.inFlight = { nonce, height: header.height };
    }
    const limit = this.config.ccuSaveLimit;
    const sentCcus = [transaction, ...this.records.sentCcus].sort((a, b) => (a.nonce < b.nonce ? 1 : a.nonce > b.nonce ? -1 : 0));
    this.save({
      sentCcus: limit === -1 ? sentCcus : sentCcus.slice(0, limit),
      ...(outcome.built.lastCcm !== undefined && { lastSentCcm: outcome.built.lastCcm }),
    });
    this.lastSkipReason = '';
    this.logger.info(
      {
        transactionID: transaction.id.toString('hex'),
        certificateHeight: outcome.built.certificate?.height ?? lastCertificate.height,
        messages: outcome.built.params.inboxUpdate.crossChainMessages.length,
        saved: this.config.isSaveCCU,
      },
      this.config.isSaveCCU ? 'Chain connector: CCU built and saved' : 'Chain connector: CCU sent',
    );
  }

  /** The relayer's CCU with `params`, signed, with the fee ccu-transaction.ts computes. */
  private async signedCcu(params: CcuParams, nonce: bigint, publicKey: Buffer): Promise<Transaction> {
    const tokenID = Buffer.concat([this.config.receivingChainID.subarray(0, 1), Buffer.alloc(7)]);
    const { exists } = await this.receiving.invoke<{ exists: boolean }>('token_hasUserAccount', {
      address: lisk32FromPublicKey(publicKey),
      tokenID: tokenID.toString('hex'),
    });
    let additionalFee = 0n;
    if (!exists) {
      const fees = await this.receiving.invoke<{ userAccount: string }>('token_getInitializationFees');
      additionalFee = BigInt(fees.userAccount);
    }
    return signedCcuTransaction({
      params,
      receivingChainID: this.config.receivingChainID,
      nonce,
      ccuFee: this.config.ccuFee,
      additionalFee,
      privateKey: this.privateKey as Buffer,
    });
  }

  /**
   * Drops what no later CCU can use: headers and commits below the receiving chain's last
   * certificate, message records below it whose messages were all received, validators no kept
   * header refers to.
   */
  private prune(lastCertificate: LastCertificate, inboxSize: number): void {
    if (lastCertificate.height === 0) return;
    const { blockHeaders, aggregateCommits, ccmRecords, validatorsHashPreimage } = this.records;
    const keptHeaders = blockHeaders.filter((header) => header.height >= lastCertificate.height);
    if (keptHeaders.length === blockHeaders.length) return;
    const usedHashes = new Set(
      [lastCertificate.validatorsHash, ...keptHeaders.map((header) => header.validatorsHash)].map((hash) => hash.toString('hex')),
    );
    this.save({
      blockHeaders: keptHeaders,
      aggregateCommits: aggregateCommits.filter((commit) => commit.height > lastCertificate.height),
      ccmRecords: ccmRecords.filter((record) => record.height >= lastCertificate.height || record.outboxSize > inboxSize),
      validatorsHashPreimage: validatorsHashPreimage.filter((data) => usedHashes.has(data.validatorsHash.toString('hex'))),
    });
  }

  private forget(height: number): void {
    const { blockHeaders, aggregateCommits, ccmRecords } = this.records;
    const removed = blockHeaders.find((header) => header.height === height);
    this.save({
      blockHeaders: blockHeaders.filter((header) => header.height !== height),
      ccmRecords: ccmRecords.filter((record) => record.height !== height),
      aggregateCommits:
        removed === undefined || removed.aggregateCommit.aggregationBits.length === 0
          ? aggregateCommits
          : aggregateCommits.filter((commit) => commit.height !== removed.aggregateCommit.height),
    });
  }

  private save(changes: Partial<ConnectorRecords>): void {
    this.store.write(changes);
    this.records = { ...this.records, ...changes };
  }

  /** Logs why no CCU went out, once per reason. */
  private skip(reason: string): void {
    if (reason === this.lastSkipReason) return;
    this.lastSkipReason = reason;
    this.logger.info({ reason }, 'Chain connector: no CCU for now');
  }
}
