import {
  blockAssetSchema,
  blockHeaderSchema,
  blockSchema,
  eventSchema,
  standardEventDataSchema,
  transactionSchema,
} from '../../chain/schemas.js';
import type { Module } from '../../modules/base/index.js';

/**
 * `system_getMetadata` as JSON text (lisk-sdk engine/endpoint/system.ts): `{modules}` sorted by
 * name with `localeCompare` as lisk-sdk does, each module's metadata with `name` added, members in
 * lisk-sdk's order (commands, events, stores, endpoints, assets, name) whatever order a module
 * builds them in, so the text is byte-identical to lisk-sdk's for the same modules.
 */
export function metadataJson(modules: readonly Pick<Module, 'name' | 'metadata'>[]): string {
  const entries = modules
    .map((module) => {
      const metadata = module.metadata();
      return {
        commands: metadata.commands,
        events: metadata.events,
        stores: metadata.stores,
        endpoints: metadata.endpoints,
        assets: metadata.assets,
        name: module.name,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return JSON.stringify({ modules: entries });
}

/**
 * `system_getSchema` as JSON text: the protocol schemas of lisk-chain.
 * lisk-chain declares `required` after `properties` in its block and header schemas (and before
 * them in the others); the text follows it so that it is byte-identical to lisk-sdk's answer.
 */
export function schemaJson(): string {
  return JSON.stringify({
    block: requiredLast(blockSchema),
    header: requiredLast(blockHeaderSchema),
    asset: blockAssetSchema,
    transaction: transactionSchema,
    event: eventSchema,
    standardEvent: standardEventDataSchema,
  });
}

function requiredLast(schema: object): object {
  const { required, ...rest } = schema as { required?: unknown };
  return { ...rest, required };
}
