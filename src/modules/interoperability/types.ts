/** Value types of the interoperability module (LIP 0045 store values, LIP 0049 messages, LIP 0043 params). */

export interface LastCertificate {
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
}

/** Chain data substore value (lisk-sdk ChainAccount). */
export interface ChainAccount {
  name: string;
  lastCertificate: LastCertificate;
  /** One of ChainStatus. */
  status: number;
}

/** An inbox or outbox: a regular Merkle tree known by its append path, size and root. */
export interface MessageBox {
  appendPath: Buffer[];
  size: number;
  root: Buffer;
}

/** Channel data substore value. */
export interface ChannelData {
  inbox: MessageBox;
  outbox: MessageBox;
  partnerChainOutboxRoot: Buffer;
  messageFeeTokenID: Buffer;
  minReturnFeePerByte: bigint;
}

export interface ActiveValidator {
  blsKey: Buffer;
  bftWeight: bigint;
}

/** Chain validators substore value. */
export interface ChainValidators {
  activeValidators: ActiveValidator[];
  certificateThreshold: bigint;
}

export interface OutboxRoot {
  root: Buffer;
}

/** Own chain substore value. */
export interface OwnChainAccount {
  name: string;
  chainID: Buffer;
  nonce: bigint;
}

/** Registered names substore value. */
export interface RegisteredName {
  chainID: Buffer;
}

export interface TerminatedStateAccount {
  stateRoot: Buffer;
  mainchainStateRoot: Buffer;
  initialized: boolean;
}

export interface TerminatedOutboxAccount {
  outboxRoot: Buffer;
  outboxSize: number;
  partnerChainInboxSize: number;
}

/** A cross-chain message (LIP 0049); the shape lives in the modules' framework (base/cross-chain.ts). */
export type { CrossChainMessage } from '../base/cross-chain.js';

export interface ChainInfo {
  chainID: Buffer;
  chainData: ChainAccount;
  channelData: ChannelData;
  chainValidators: ChainValidators;
}

/** The interoperability genesis asset (LIP 0045). */
export interface GenesisInteroperability {
  ownChainName: string;
  ownChainNonce: bigint;
  chainInfos: ChainInfo[];
  terminatedStateAccounts: { chainID: Buffer; terminatedStateAccount: TerminatedStateAccount }[];
  terminatedOutboxAccounts: { chainID: Buffer; terminatedOutboxAccount: TerminatedOutboxAccount }[];
}

/** Params of registerSidechain (LIP 0043). */
export interface SidechainRegistrationParams {
  chainID: Buffer;
  name: string;
  sidechainValidators: ActiveValidator[];
  sidechainCertificateThreshold: bigint;
}
