/**
 * Validation of a merged node config against nodeConfigSchema, with messages that name the key
 * and what it must be (`.rpc.port: must be <= 65535`, `.rpc.modes[0]: must be one of "ipc",
 * "ws", "http"`), all problems at once.
 */
import { validationErrors } from '../codec/index.js';
import { ConfigError } from './config-error.js';
import { nodeConfigSchema } from './config-schema.js';
import type { NodeConfig } from './node-config.js';

/** The parts of a JSON schema read here; the other keywords are only for the validator. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  enum?: readonly unknown[];
  [keyword: string]: unknown;
}

const ENUM_MESSAGE = 'must be equal to one of the allowed values';

/** The schema node at a validator path such as `.rpc.modes[0]` (undefined when not found). */
function schemaAt(path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = nodeConfigSchema;
  for (const [, key, index] of path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)) {
    if (node === undefined) return undefined;
    if (index !== undefined) {
      node = node.items;
    } else if (key !== undefined) {
      const named: SchemaNode | undefined = node.properties?.[key];
      node = named ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    }
  }
  return node;
}

/** Makes a validator message self-explanatory: the root is shown as `config`, enums list their values. */
function explain(problem: string): string {
  const separator = problem.indexOf(': ');
  const path = problem.slice(0, separator);
  let reason = problem.slice(separator + 2);
  if (reason === ENUM_MESSAGE) {
    const allowed = schemaAt(path)?.enum;
    if (allowed) reason = `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return `${path === '' ? 'config' : path}: ${reason}`;
}

/**
 * Port 0 asks the OS for a free port, and the node logs the port it bound ("RPC server
 * listening", "Node started", "P2P network started", "Legacy forging API listening", "Metrics server listening"): accepted for these listeners
 * besides lisk-sdk's ranges, so that a test or script can start a node without racing for a port.
 */
const EPHEMERAL_PORT_SECTIONS = ['rpc', 'legacyApi', 'network', 'metrics'] as const;

function isEphemeralPort(config: unknown, problem: string): boolean {
  const sections = config as Record<string, { port?: unknown } | undefined> | undefined;
  return EPHEMERAL_PORT_SECTIONS.some((section) => problem.startsWith(`.${section}.port: must be >=`) && sections?.[section]?.port === 0);
}

/** Every problem of a merged config (empty when it is a valid NodeConfig). */
export function nodeConfigProblems(config: unknown): string[] {
  const problems = validationErrors(nodeConfigSchema, config)
    .filter((problem) => !isEphemeralPort(config, problem))
    .map(explain);
  const block = (config as { genesis?: { block?: { fromFile?: unknown; blob?: unknown } } } | undefined)?.genesis?.block;
  if (block !== null && typeof block === 'object') {
    const sources = [block.fromFile, block.blob].filter((source) => source !== undefined).length;
    if (sources !== 1) problems.push('.genesis.block: must have exactly one of "fromFile" (a file path) or "blob" (hex bytes)');
  }
  return problems;
}

/**
 * Keys inside the sections that the schema does not know (lisk-sdk accepts them, so Basalt does
 * too), as paths: worth a warning, since a misspelt key silently keeps its default.
 */
export function unknownConfigKeys(config: NodeConfig): string[] {
  const unknown: string[] = [];
  const visit = (value: unknown, node: SchemaNode | undefined, path: string): void => {
    if (node?.properties === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, item] of Object.entries(value)) {
      const child = node.properties[key];
      if (child === undefined) unknown.push(`${path}.${key}`);
      else visit(item, child, `${path}.${key}`);
    }
  };
  const root: SchemaNode = nodeConfigSchema;
  for (const section of ['system', 'rpc', 'network', 'transactionPool', 'generator', 'legacy'] as const) {
    visit(config[section], root.properties?.[section], `.${section}`);
  }
  return unknown;
}

/** Checks a merged config; throws one ConfigError listing every problem, each naming its key. */
export function validateNodeConfig(config: unknown, source = 'config'): NodeConfig {
  const problems = nodeConfigProblems(config);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid ${source}:\n  ${problems.join('\n  ')}`);
  }
  return config as NodeConfig;
}
