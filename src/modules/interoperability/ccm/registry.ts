/**
 * The interoperable modules a chain's cross-chain messages are dispatched to (lisk-sdk
 * BaseInteroperabilityModule.registerInteroperableModule): their hooks by module name, in
 * registration order (the order every hook runs in), and their cross-chain commands.
 */
import type { CrossChainCommand, CrossChainMethod, InteroperableModule } from '../../base/index.js';

export class CrossChainRegistry {
  readonly methods = new Map<string, CrossChainMethod>();
  readonly commands = new Map<string, readonly CrossChainCommand<unknown>[]>();
  private readonly byName = new Map<string, InteroperableModule>();

  constructor(
    private readonly ownName: string,
    private readonly ownCommands: readonly CrossChainCommand<unknown>[],
  ) {}

  /**
   * As lisk-sdk: (re)registers the interoperability module's own commands first, then the module's
   * hooks and commands. A module without commands still counts as known (its messages fail as
   * "command not supported", not "module not supported"). The interoperability module's own hooks
   * are never registered, so they never run.
   */
  register(module: InteroperableModule): void {
    this.commands.set(this.ownName, this.ownCommands);
    this.byName.set(module.name, module);
    if (module.crossChainMethod !== undefined) this.methods.set(module.name, module.crossChainMethod);
    this.commands.set(module.name, module.crossChainCommands ?? []);
  }

  /** The registered modules, in registration order (a module registered again keeps its place). */
  modules(): InteroperableModule[] {
    return [...this.byName.values()];
  }

  findCommand(module: string, name: string): { known: boolean; command: CrossChainCommand<unknown> | undefined } {
    const commands = this.commands.get(module);
    return { known: commands !== undefined, command: commands?.find((command) => command.name === name) };
  }
}
