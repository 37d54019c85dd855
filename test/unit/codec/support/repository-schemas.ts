/**
 * Every codec schema the repository exports from its schema modules, named `room.exportName`,
 * for the property tests that run each encoder and decoder variant on all of them.
 */
import * as chainSchemas from '../../../../src/chain/schemas.js';
import type { Schema } from '../../../../src/codec/index.js';
import { buildLayout, type ObjectLayout } from '../../../../src/codec/layout.js';
import { validateSchema } from '../../../../src/codec/validate-schema.js';
import * as bftSchemas from '../../../../src/engine/consensus/bft/schemas.js';
import * as legacyChainSchemas from '../../../../src/legacy-chain/schemas.js';
import * as authSchemas from '../../../../src/modules/auth/schemas.js';
import * as dynamicRewardSchemas from '../../../../src/modules/dynamic-reward/schemas.js';
import * as feeSchemas from '../../../../src/modules/fee/schemas.js';
import * as interoperabilitySchemas from '../../../../src/modules/interoperability/schemas.js';
import * as legacySchemas from '../../../../src/modules/legacy/schemas.js';
import * as posSchemas from '../../../../src/modules/pos/schemas.js';
import * as randomSchemas from '../../../../src/modules/random/schemas.js';
import * as tokenSchemas from '../../../../src/modules/token/schemas.js';
import * as validatorsSchemas from '../../../../src/modules/validators/schemas.js';
import * as p2pSchemas from '../../../../src/p2p/schemas.js';

function isSchema(value: unknown): value is Schema {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (candidate.type !== 'object' || typeof candidate.properties !== 'object') return false;
  try {
    validateSchema(candidate as Schema);
    return true;
  } catch {
    return false;
  }
}

export const repositorySchemas: [string, Schema][] = Object.entries({
  chain: chainSchemas,
  bft: bftSchemas,
  legacyChain: legacyChainSchemas,
  auth: authSchemas,
  dynamicReward: dynamicRewardSchemas,
  fee: feeSchemas,
  interoperability: interoperabilitySchemas,
  legacy: legacySchemas,
  pos: posSchemas,
  random: randomSchemas,
  token: tokenSchemas,
  validators: validatorsSchemas,
  p2p: p2pSchemas,
}).flatMap(([room, exports]) =>
  Object.entries(exports as Record<string, unknown>)
    .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    .map(([name, schema]): [string, Schema] => [`${room}.${name}`, schema]),
);

/** `build(layout)` once per schema object (a WeakMap memo): the tests compile each variant once. */
export function perSchema<T>(build: (layout: ObjectLayout) => T): (schema: Schema) => T {
  const cache = new WeakMap<Schema, T>();
  return (schema) => {
    let entry = cache.get(schema);
    if (entry === undefined) {
      entry = build(buildLayout(schema));
      cache.set(schema, entry);
    }
    return entry;
  };
}
