/**
 * The pos module (LIP 0057 Proof-of-Stake; lisk-sdk 6.1 framework/src/modules/pos): validator
 * registration, staking with reward sharing, unlocking, misbehavior reports, fail-safe bans and
 * the per-round validator set (snapshot, selection by weight, standby picks, shuffling).
 */
import type { Schema } from '../../codec/index.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type {
  BlockAfterExecuteContext,
  Command,
  EndpointHandler,
  GenesisContext,
  Module,
  ModuleEvent,
  ModuleMetadata,
  ModuleStore,
} from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { posAfterTransactionsExecute } from './after-transactions.js';
import { ChangeCommissionCommand } from './commands/change-commission.js';
import { ClaimRewardsCommand } from './commands/claim-rewards.js';
import { RegisterValidatorCommand } from './commands/register-validator.js';
import { ReportMisbehaviorCommand } from './commands/report-misbehavior.js';
import { StakeCommand } from './commands/stake.js';
import { UnlockCommand } from './commands/unlock.js';
import { UpdateGeneratorKeyCommand } from './commands/update-generator-key.js';
import { parsePosConfig, posConfigSchema, type PosConfig } from './config.js';
import { POS_MODULE_NAME } from './constants.js';
import type { PosDependencies } from './dependencies.js';
import { createPosEndpoints } from './endpoint.js';
import { posEvents } from './events.js';
import { finalizePosGenesisState, initPosGenesisState } from './genesis.js';
import { PosInternalMethod } from './internal-method.js';
import { PosMethod } from './method.js';
import { genesisAssetSchema } from './schemas.js';
import { posStores } from './stores.js';
import { InvariantError } from '../../errors.js';

/** lisk-sdk's schemas assume 10 s blocks until init knows the chain's block time. */
const DEFAULT_BLOCK_TIME = 10;

export class PosModule implements Module {
  readonly name = POS_MODULE_NAME;
  readonly stores: readonly ModuleStore<object>[] = posStores;
  readonly events: readonly ModuleEvent<object>[] = posEvents;
  readonly genesisAssetSchema: Schema = genesisAssetSchema;
  readonly method: PosMethod;
  readonly commands: readonly Command<unknown>[];
  readonly endpoints: Readonly<Record<string, EndpointHandler>>;

  private readonly internal: PosInternalMethod;
  private readonly registerValidator: RegisterValidatorCommand;
  private readonly reportMisbehavior: ReportMisbehaviorCommand;
  private readonly unlock: UnlockCommand;
  private readonly stake: StakeCommand;
  private readonly changeCommission: ChangeCommissionCommand;
  private config: PosConfig | undefined;
  private configSchema = posConfigSchema(DEFAULT_BLOCK_TIME);

  constructor(private readonly deps: PosDependencies) {
    this.internal = new PosInternalMethod(deps.token);
    this.method = new PosMethod(deps.token, this.internal);
    this.registerValidator = new RegisterValidatorCommand(deps.validators, deps.fee);
    this.reportMisbehavior = new ReportMisbehaviorCommand(deps.token, deps.validators);
    this.unlock = new UnlockCommand(deps.token);
    this.stake = new StakeCommand(deps.token, this.internal);
    this.changeCommission = new ChangeCommissionCommand();
    // lisk-sdk's command order (metadata lists them so).
    this.commands = [
      this.registerValidator,
      this.reportMisbehavior,
      this.unlock,
      new UpdateGeneratorKeyCommand(deps.validators),
      this.stake,
      this.changeCommission,
      new ClaimRewardsCommand(this.internal),
    ];
    this.endpoints = createPosEndpoints({
      config: () => this.settings,
      configSchema: () => this.configSchema,
      token: deps.token,
      internal: this.internal,
    });
  }

  /** Parses `modules.pos` (see config.ts) and hands the result to the method and commands. */
  init(args: ModuleInitArgs): void {
    const config = parsePosConfig(args.moduleConfig, args.genesisConfig);
    this.config = config;
    this.configSchema = posConfigSchema(args.genesisConfig.blockTime);
    this.method.init(config);
    this.registerValidator.init(config);
    this.reportMisbehavior.init(config);
    this.unlock.init(config);
    this.stake.init(config);
    this.changeCommission.init(config);
  }

  /** The module's `system_getMetadata` entry (without `name`), as lisk-sdk's PoSModule.metadata(). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: 0, data: genesisAssetSchema }]);
  }

  initGenesisState(context: GenesisContext): void {
    initPosGenesisState(context, this.settings);
  }

  finalizeGenesisState(context: GenesisContext): void {
    finalizePosGenesisState(context, this.settings, this.deps);
  }

  afterTransactionsExecute(context: BlockAfterExecuteContext): void {
    posAfterTransactionsExecute(context, this.settings, {
      validators: this.deps.validators,
      random: this.deps.random,
      method: this.method,
    });
  }

  private get settings(): PosConfig {
    if (this.config === undefined) throw new InvariantError('The pos module is used before init.');
    return this.config;
  }
}

export { PosMethod } from './method.js';
export type { PosConfig, PunishmentLockingPeriods } from './config.js';
export type * from './dependencies.js';
export * from './constants.js';
export * from './stores.js';
export * from './events.js';
