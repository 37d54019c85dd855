/**
 * The auth module (LIP 0041; lisk-sdk framework/src/modules/auth): account nonces and signature
 * rules, multisignature registration, and the nonce/signature checks every transaction passes.
 */
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Ed25519Check } from '../../crypto/index.js';
import {
  VERIFY_OK,
  VerifyStatus,
  verifyFail,
  moduleMetadata,
  type Command,
  type EndpointHandler,
  type GenesisContext,
  type Module,
  type ModuleMetadata,
  type SignatureCheckContext,
  type TransactionExecuteContext,
  type TransactionVerifyContext,
  type VerificationResult,
} from '../base/index.js';
import { RegisterMultisignatureCommand } from './commands/register-multisignature.js';
import { DEFAULT_AUTH_CONFIG, parseAuthConfig, type AuthConfig } from './config.js';
import { AUTH_MODULE_NAME } from './constants.js';
import { createAuthEndpoints } from './endpoint.js';
import { AUTH_EVENTS } from './events.js';
import { initAuthGenesisState } from './genesis.js';
import { AuthMethod } from './method.js';
import { InvalidNonceError } from './errors.js';
import { nonceStatus } from './nonce.js';
import { genesisAuthStoreSchema } from './schemas.js';
import { AuthAccountStore } from './stores.js';
import { checkTransactionSignatures, transactionSignatureChecks } from './transaction-signatures.js';

const PENDING: VerificationResult = Object.freeze({ status: VerifyStatus.PENDING });

export class AuthModule implements Module {
  readonly name = AUTH_MODULE_NAME;
  readonly accounts = new AuthAccountStore();
  readonly stores = [this.accounts];
  readonly events = AUTH_EVENTS;
  readonly method = new AuthMethod(this.accounts);
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = createAuthEndpoints(this.accounts);
  readonly genesisAssetSchema = genesisAuthStoreSchema;
  private readonly registerMultisignature = new RegisterMultisignatureCommand(this.accounts);
  readonly commands: readonly Command<unknown>[] = [this.registerMultisignature];
  private config: AuthConfig = DEFAULT_AUTH_CONFIG;

  /** Reads `modules.auth` (lisk-sdk AuthModule.init). */
  init(args: ModuleInitArgs): void {
    this.config = parseAuthConfig(args.moduleConfig);
    this.registerMultisignature.maxNumberOfSignatures = this.config.maxNumberOfSignatures;
  }

  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: 0, data: genesisAuthStoreSchema }]);
  }

  /** Writes the genesis accounts; a block without an auth asset leaves the store empty. */
  initGenesisState(context: GenesisContext): void {
    const asset = context.assets.getAsset(this.name);
    if (asset === undefined) return;
    initAuthGenesisState(context.state, this.accounts, asset, this.config.maxNumberOfSignatures);
  }

  /**
   * Nonce, then signatures (LIP 0041 "Transaction verification"): a spent nonce fails at once; a
   * future nonce still needs valid signatures and then yields PENDING.
   */
  verifyTransaction(context: TransactionVerifyContext): VerificationResult {
    const { transaction } = context;
    const account = this.accounts.getOrDefault(context.state, transaction.senderAddress());
    const status = nonceStatus(transaction.nonce, account.nonce);
    if (status === VerifyStatus.FAIL) {
      return { status, error: new InvalidNonceError(transaction.id, transaction.nonce, account.nonce) };
    }
    const failure = checkTransactionSignatures(transaction, context.chainID, account, context.verifiedSignatures);
    if (failure !== undefined) return verifyFail(failure);
    return status === VerifyStatus.OK ? VERIFY_OK : PENDING;
  }

  /** The checks verifyTransaction makes against this state, for batch verification. */
  signatureChecks(context: SignatureCheckContext): readonly Ed25519Check[] {
    const account = this.accounts.getOrDefault(context.state, context.transaction.senderAddress());
    return transactionSignatureChecks(context.transaction, context.chainID, account);
  }

  /** Consumes the nonce: the sender's account is written (created if new) with nonce + 1. */
  beforeCommandExecute(context: TransactionExecuteContext): void {
    const { transaction } = context;
    const address = transaction.senderAddress();
    // getOrDefault hands out a fresh object (decoded or default): updating it in place is safe,
    // and cheaper than a spread copy with a changed property.
    const account = this.accounts.getOrDefault(context.state, address);
    account.nonce += 1n;
    this.accounts.set(context.state, address, account);
  }
}

export { AuthAccountStore, authAccountSchema, defaultAuthAccount, type AuthAccount } from './stores.js';
export { AuthMethod } from './method.js';
export { RegisterMultisignatureCommand } from './commands/register-multisignature.js';
export { DEFAULT_AUTH_CONFIG, parseAuthConfig, type AuthConfig } from './config.js';
export { InvalidNonceError } from './errors.js';
export { nonceStatus } from './nonce.js';
export {
  checkTransactionSignatures,
  planTransactionSignatures,
  transactionSigningDigest,
  type SignatureCheck,
  type SignaturePlan,
} from './transaction-signatures.js';
export { invalidSignatureEvent, multisignatureRegistrationEvent } from './events.js';
export type { RegisterMultisignatureParams, MultisigRegMessage } from './schemas.js';
