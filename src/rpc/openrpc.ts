/**
 * `rpc.discover`: the node's JSON-RPC interface as an OpenRPC 1.3 document (OpenRPC
 * specification 1.3.2, "Service Discovery Method"), built from the registry so that it lists
 * exactly what the node serves: the engine namespaces, every module's endpoints and the plugins'
 * methods. Each method has its params by name (one content descriptor per property of its params
 * schema), its result schema when the method declares one, the JSON-RPC errors it can answer,
 * and whether it is sensitive (`x-sensitive`, plus a `sensitive` tag). docs/rpc.md is rendered
 * from the same document (openrpc-markdown.ts, `npm run docs:rpc`).
 */
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_DISABLED, RESOURCE_NOT_FOUND } from './error-codes.js';
import { RawJson } from './raw-json.js';
import type { RpcMethod, RpcRegistry } from './registry.js';

export const OPENRPC_VERSION = '1.3.2';
export const DISCOVER_METHOD = 'rpc.discover';

export interface OpenRpcContentDescriptor {
  name: string;
  required?: boolean;
  description?: string;
  schema: object;
}

export interface OpenRpcError {
  code: number;
  message: string;
}

export interface OpenRpcMethod {
  name: string;
  summary?: string;
  tags: { name: string }[];
  paramStructure: 'by-name';
  params: OpenRpcContentDescriptor[];
  result: OpenRpcContentDescriptor;
  errors: OpenRpcError[];
  'x-sensitive': boolean;
}

export interface OpenRpcDocument {
  openrpc: string;
  info: { title: string; version: string; description: string };
  methods: OpenRpcMethod[];
}

/** What each code means, in the words the document uses (error-codes.ts has the mapping). */
const ERROR_MESSAGES: ReadonlyMap<number, string> = new Map([
  [RESOURCE_NOT_FOUND, 'Resource not found: the block, transaction, account or key asked for is not stored'],
  [METHOD_DISABLED, 'Method disabled: sensitive, and not allowed by rpc.allowedMethods'],
  [INVALID_PARAMS, 'Invalid params'],
  [INTERNAL_ERROR, 'Internal error'],
]);

const DESCRIPTION =
  'JSON-RPC 2.0 over HTTP POST /rpc, WebSocket /rpc-ws and the IPC socket, compatible with Lisk SDK v6. ' +
  'Params are passed by name. Methods marked sensitive (x-sensitive) answer -32002 unless rpc.allowedMethods allows them. ' +
  'Any request may also get -32700 (parse error), -32600 (invalid request) or -32601 (method not found).';

/** The OpenRPC document of every method in `registry`, in app_getRegisteredEndpoints order. */
export function openRpcDocument(registry: Pick<RpcRegistry, 'methodNames' | 'get'>, version: string): OpenRpcDocument {
  const methods: OpenRpcMethod[] = [];
  for (const name of registry.methodNames()) {
    const method = registry.get(name);
    if (method !== undefined) methods.push(describeMethod(name, method));
  }
  return { openrpc: OPENRPC_VERSION, info: { title: 'Basalt JSON-RPC', version, description: DESCRIPTION }, methods };
}

/**
 * Registers `rpc.discover` on `registry`. The document is built on the first call, when every
 * method (plugins' included) is registered, and kept: the registry does not change while the
 * node runs.
 */
export function registerDiscover(registry: RpcRegistry, version: string): void {
  let document: RawJson | undefined;
  registry.registerReserved(DISCOVER_METHOD, {
    namespace: 'rpc',
    name: 'discover',
    invoke: () => (document ??= new RawJson(JSON.stringify(openRpcDocument(registry, version)))),
  });
}

function describeMethod(fullName: string, method: RpcMethod): OpenRpcMethod {
  const sensitive = method.sensitive === true;
  const codes = new Set<number>(method.errors ?? []);
  if (method.request !== undefined) codes.add(INVALID_PARAMS);
  if (sensitive) codes.add(METHOD_DISABLED);
  codes.add(INTERNAL_ERROR);
  return {
    name: fullName,
    tags: [{ name: method.namespace }, ...(sensitive ? [{ name: 'sensitive' }] : [])],
    paramStructure: 'by-name',
    params: paramsOf(method.request),
    result: { name: 'result', schema: method.response === undefined ? {} : jsonSchemaOf(method.response) },
    errors: [...codes].sort((a, b) => b - a).map((code) => ({ code, message: ERROR_MESSAGES.get(code) ?? 'Error' })),
    'x-sensitive': sensitive,
  };
}

type SchemaNode = { properties?: Record<string, unknown>; required?: readonly string[] } & Record<string, unknown>;

/** One content descriptor per property of the params object's schema, in the schema's order. */
function paramsOf(request: object | undefined): OpenRpcContentDescriptor[] {
  const properties = (request as SchemaNode | undefined)?.properties;
  if (properties === undefined) return [];
  const required = new Set((request as SchemaNode).required ?? []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    required: required.has(name),
    schema: jsonSchemaOf(schema as object),
  }));
}

/** Lisk's codec keywords, which mean nothing to a JSON-schema reader (the codec's own, not JSON Schema's). */
const CODEC_KEYWORDS = new Set(['fieldNumber', 'dataType', '$id']);

/**
 * `schema` as plain JSON Schema: Lisk's codec keywords removed, and `dataType` turned into the
 * JSON type its values take in JSON (bytes as hex strings, 64-bit integers as decimal strings).
 */
function jsonSchemaOf(schema: object): object {
  if (Array.isArray(schema)) return schema.map((item) => (typeof item === 'object' && item !== null ? jsonSchemaOf(item) : item));
  const out: Record<string, unknown> = {};
  const node = schema as Record<string, unknown>;
  const dataType = node.dataType;
  if (typeof dataType === 'string' && node.type === undefined) {
    const type = JSON_TYPE_OF_DATA_TYPE[dataType];
    if (type !== undefined) out.type = type;
  }
  for (const [key, value] of Object.entries(node)) {
    if (CODEC_KEYWORDS.has(key)) continue;
    out[key] = typeof value === 'object' && value !== null ? jsonSchemaOf(value) : value;
  }
  return out;
}

const JSON_TYPE_OF_DATA_TYPE: Readonly<Record<string, string>> = {
  bytes: 'string',
  string: 'string',
  boolean: 'boolean',
  uint32: 'integer',
  sint32: 'integer',
  uint64: 'string',
  sint64: 'string',
};
