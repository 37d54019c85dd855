/**
 * rpc.discover: the OpenRPC document of a devnet node (block production and P2P on) is valid
 * against the OpenRPC 1.3 meta-schema, lists every registered method with its params by name, its
 * sensitivity and its errors, is served by the dispatcher under `rpc.discover`, and docs/rpc.md
 * is the text rendered from it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { RpcDispatcher } from '../../src/rpc/dispatcher.js';
import { openRpcDocument, registerDiscover, type OpenRpcDocument } from '../../src/rpc/openrpc.js';
import { openRpcMarkdown } from '../../src/rpc/openrpc-markdown.js';
import { RpcRegistry } from '../../src/rpc/registry.js';
import { devnetOpenRpcDocument, RPC_DOCS_PATH } from '../../scripts/generate-rpc-docs.js';

// Both packages are CommonJS; their default exports are read the way Node hands them over.
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv')['default'];
const { openrpcDocument: openRpcMetaSchema } = require('@open-rpc/meta-schema') as { openrpcDocument: Record<string, unknown> };

/** An ajv for JSON schemas as Basalt writes them: lisk formats (lisk32, hex, uint64) are not JSON Schema's. */
function newAjv() {
  return new Ajv({ strict: false, validateFormats: false, allErrors: true });
}

describe('rpc.discover', () => {
  let document: OpenRpcDocument;

  beforeAll(async () => {
    document = await devnetOpenRpcDocument();
  }, 60_000);

  it('is a valid OpenRPC 1.3 document', () => {
    // The meta-schema points at a JSON Schema meta-schema by URL (no network here): any object or
    // boolean stands for a schema in it, and each schema of the document is compiled on its own below.
    const { $schema: _ignored, ...metaSchema } = openRpcMetaSchema;
    const offline = JSON.parse(
      JSON.stringify(metaSchema)
        .replace('{"$ref":"https://meta.json-schema.tools"}', '{"type":["object","boolean"]}')
        .replace('{"$ref":"https://meta.json-schema.tools/#/definitions/JSONSchemaObject/properties/$ref"}', '{"type":"string"}'),
    ) as Record<string, unknown>;
    const validate = newAjv().compile(offline);
    expect(validate(document), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    // The validator does refuse what is not OpenRPC.
    expect(validate({ ...document, openrpc: '0.9.0' })).toBe(false);
    expect(validate({ ...document, methods: [{ ...document.methods[0], paramStructure: 'sideways' }] })).toBe(false);
    expect(document.openrpc).toMatch(/^1\.3\./);
    for (const method of document.methods) {
      for (const descriptor of [...method.params, method.result]) {
        expect(() => newAjv().compile(descriptor.schema), `${method.name} ${descriptor.name}`).not.toThrow();
      }
    }
  });

  it('lists every method with params by name, sensitivity and errors', () => {
    const byName = new Map(document.methods.map((method) => [method.name, method]));
    const names = document.methods.map((method) => method.name);
    expect(names).toEqual([...names].sort());
    for (const name of [
      'chain_getBlockByHeight',
      'token_getBalance',
      'generator_getStatus',
      'network_getStats',
      'txpool_postTransaction',
    ]) {
      expect(names).toContain(name);
    }
    const byHeight = byName.get('chain_getBlockByHeight');
    expect(byHeight?.params.map((param) => [param.name, param.required])).toEqual([['height', true]]);
    expect(byHeight?.errors.map((error) => error.code)).toEqual([-32001, -32602, -32603]);
    const balance = byName.get('token_getBalance');
    expect(balance?.params.map((param) => param.name)).toEqual(['address', 'tokenID']);
    expect(balance?.result.schema).toMatchObject({ type: 'object', required: ['availableBalance', 'lockedBalances'] });
    // Lisk's codec keywords are not JSON Schema: they are gone.
    expect(JSON.stringify(document)).not.toMatch(/"fieldNumber"|"dataType"/);
    const report = byName.get('system_getMetricsReport');
    expect(report?.['x-sensitive']).toBe(true);
    expect(report?.tags).toContainEqual({ name: 'sensitive' });
    expect(report?.errors.map((error) => error.code)).toContain(-32002);
    expect(byName.get('system_getNodeInfo')?.['x-sensitive']).toBe(false);
    expect(byName.get('system_getNodeInfo')?.params).toEqual([]);
  });

  it('is answered by the dispatcher, includes plugin methods, and is not an endpoint of its own', async () => {
    const registry = new RpcRegistry();
    registry.register({ namespace: 'chain', name: 'getLastBlock', invoke: () => ({}) });
    registry.register({
      namespace: 'myPlugin',
      name: 'getThing',
      sensitive: true,
      request: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, deep: { type: 'boolean' } } },
      invoke: () => ({}),
    });
    registerDiscover(registry, '9.9.9');
    const dispatcher = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
    const text = await dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}');
    const answer = JSON.parse(text as string) as { result: OpenRpcDocument };
    expect(answer.result).toEqual(openRpcDocument(registry, '9.9.9'));
    expect(answer.result.info.version).toBe('9.9.9');
    expect(answer.result.methods.map((method) => method.name)).toEqual(['chain_getLastBlock', 'myPlugin_getThing']);
    const plugin = answer.result.methods[1];
    expect(plugin?.params).toEqual([
      { name: 'id', required: true, schema: { type: 'string' } },
      { name: 'deep', required: false, schema: { type: 'boolean' } },
    ]);
    expect(plugin?.['x-sensitive']).toBe(true);
    expect(registry.methodNames()).toEqual(['chain_getLastBlock', 'myPlugin_getThing']);
  });

  it('renders docs/rpc.md; run `npm run docs:rpc` when this fails', () => {
    expect(readFileSync(RPC_DOCS_PATH, 'utf8')).toBe(openRpcMarkdown(document));
  });
});
