/**
 * What every command that talks to a node shares: the connection its flags describe, and the
 * shape of the commands that only print one answer of the node.
 */
import { EXIT_OK, type CliCommand } from '../command.js';
import { NODE_FLAGS, parseFlags } from './args.js';
import { resolveDataPath } from './data-path.js';
import { printJson } from './json-output.js';
import { withNode, type ConnectOptions } from './node-client.js';

/** The connection of `--data-path` / `--url` (IPC unless a URL is given). */
export function nodeConnection(values: { 'data-path'?: string; url?: string }): ConnectOptions {
  return { dataPath: resolveDataPath(values['data-path']), url: values.url };
}

export interface NodeQueryCommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  /** The RPC method, called without params. */
  readonly method: string;
  /** What is printed for the node's answer (the answer itself by default). */
  readonly output?: (answer: unknown) => unknown;
}

/** A command that takes the node flags, asks the node `method` and prints the answer as JSON. */
export function nodeQueryCommand(spec: NodeQueryCommandSpec): CliCommand {
  const { method, output = (answer) => answer } = spec;
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    async run(argv, io) {
      const { values } = parseFlags(argv, NODE_FLAGS);
      const answer = await withNode(nodeConnection(values), (client) => client.invoke(method));
      printJson(io.stdout, output(answer), values.pretty === true);
      return EXIT_OK;
    },
  };
}
