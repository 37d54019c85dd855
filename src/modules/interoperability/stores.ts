/**
 * The eight substores of the interoperability module (LIP 0045; lisk-sdk interoperability/stores),
 * listed in lisk-sdk's registration order, which is also the metadata order. The substore index
 * (second argument) decides the key prefix; all live under INTEROPERABILITY_STORE_PREFIX.
 */
import { objectArrayField, objectField, objectSchema, type Schema } from '../../codec/index.js';
import { ModuleStore } from '../base/index.js';
import {
  BLS_PUBLIC_KEY_LENGTH,
  CHAIN_ID_LENGTH,
  HASH_LENGTH,
  INTEROPERABILITY_MODULE_NAME,
  INTEROPERABILITY_STORE_PREFIX,
  MAX_CHAIN_NAME_LENGTH,
  MAX_NUM_VALIDATORS,
  MIN_CHAIN_NAME_LENGTH,
  TOKEN_ID_LENGTH,
} from './constants.js';
import type {
  ChainAccount,
  ChainValidators,
  ChannelData,
  OutboxRoot,
  OwnChainAccount,
  RegisteredName,
  TerminatedOutboxAccount,
  TerminatedStateAccount,
} from './types.js';

/**
 * A ModuleStore under the interoperability module's fixed prefix instead of the prefix derived
 * from the module name (see INTEROPERABILITY_STORE_PREFIX).
 */
class InteroperabilityStore<T extends object> extends ModuleStore<T> {
  constructor(name: string, index: number, schema: Schema) {
    super(INTEROPERABILITY_MODULE_NAME, name, index, schema, INTEROPERABILITY_STORE_PREFIX);
  }
}

const hash32 = { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH } as const;
const chainID4 = { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH } as const;

export const outboxRootSchema: Schema = objectSchema('/modules/interoperability/outbox', {
  root: { ...hash32, fieldNumber: 1 },
});

export const chainDataSchema: Schema = objectSchema('/modules/interoperability/chainData', {
  name: { dataType: 'string', minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
  lastCertificate: objectField(2, {
    height: { dataType: 'uint32', fieldNumber: 1 },
    timestamp: { dataType: 'uint32', fieldNumber: 2 },
    stateRoot: { ...hash32, fieldNumber: 3 },
    validatorsHash: { ...hash32, fieldNumber: 4 },
  }),
  status: { dataType: 'uint32', fieldNumber: 3 },
});

export const ownChainAccountSchema: Schema = objectSchema('/modules/interoperability/ownChainAccount', {
  name: { dataType: 'string', minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
  chainID: { ...chainID4, fieldNumber: 2 },
  nonce: { dataType: 'uint64', fieldNumber: 3 },
});

function messageBoxSchema(fieldNumber: number) {
  return objectField(fieldNumber, {
    appendPath: { type: 'array', items: { ...hash32 }, fieldNumber: 1 },
    size: { dataType: 'uint32', fieldNumber: 2 },
    root: { ...hash32, fieldNumber: 3 },
  });
}

export const channelSchema: Schema = objectSchema('/modules/interoperability/channel', {
  inbox: messageBoxSchema(1),
  outbox: messageBoxSchema(2),
  partnerChainOutboxRoot: { ...hash32, fieldNumber: 3 },
  messageFeeTokenID: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber: 4 },
  minReturnFeePerByte: { dataType: 'uint64', fieldNumber: 5 },
});

export const chainValidatorsSchema: Schema = objectSchema('/modules/interoperability/chainValidators', {
  activeValidators: objectArrayField(
    1,
    {
      blsKey: { dataType: 'bytes', minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH, fieldNumber: 1 },
      bftWeight: { dataType: 'uint64', fieldNumber: 2 },
    },
    { minItems: 1, maxItems: MAX_NUM_VALIDATORS },
  ),
  certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
});

export const terminatedStateSchema: Schema = objectSchema('/modules/interoperability/terminatedState', {
  stateRoot: { ...hash32, fieldNumber: 1 },
  mainchainStateRoot: { ...hash32, fieldNumber: 2 },
  initialized: { dataType: 'boolean', fieldNumber: 3 },
});

export const terminatedOutboxSchema: Schema = objectSchema('/modules/interoperability/terminatedOutbox', {
  outboxRoot: { ...hash32, fieldNumber: 1 },
  outboxSize: { dataType: 'uint32', fieldNumber: 2 },
  partnerChainInboxSize: { dataType: 'uint32', fieldNumber: 3 },
});

export const registeredNamesSchema: Schema = objectSchema('/modules/interoperability/chainId', {
  chainID: { ...chainID4, fieldNumber: 1 },
});

/** Outbox root per partner chain (key: chain ID): what a sidechain proves against the mainchain state root. */
export const outboxRootStore = new InteroperabilityStore<OutboxRoot>('outboxRoot', 0, outboxRootSchema);
/** Chain account per registered chain (key: chain ID). */
export const chainAccountStore = new InteroperabilityStore<ChainAccount>('chainAccount', 1, chainDataSchema);
/** The own chain's name, ID and message nonce (key: empty). */
export const ownChainAccountStore = new InteroperabilityStore<OwnChainAccount>('ownChainAccount', 13, ownChainAccountSchema);
/** Channel (inbox, outbox, fees) per partner chain (key: chain ID). */
export const channelDataStore = new InteroperabilityStore<ChannelData>('channelData', 5, channelSchema);
/** Certifying validators per partner chain (key: chain ID). */
export const chainValidatorsStore = new InteroperabilityStore<ChainValidators>('chainValidators', 9, chainValidatorsSchema);
/** State of terminated chains (key: chain ID). */
export const terminatedStateStore = new InteroperabilityStore<TerminatedStateAccount>('terminatedState', 3, terminatedStateSchema);
/** Outbox of terminated chains (key: chain ID). */
export const terminatedOutboxStore = new InteroperabilityStore<TerminatedOutboxAccount>('terminatedOutbox', 11, terminatedOutboxSchema);
/** Chain ID per registered chain name (key: the name in ASCII). */
export const registeredNamesStore = new InteroperabilityStore<RegisteredName>('registeredNames', 7, registeredNamesSchema);

export const interoperabilityStores = [
  outboxRootStore,
  chainAccountStore,
  ownChainAccountStore,
  channelDataStore,
  chainValidatorsStore,
  terminatedStateStore,
  terminatedOutboxStore,
  registeredNamesStore,
] as const;
