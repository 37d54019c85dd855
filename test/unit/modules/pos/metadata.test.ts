/**
 * The pos module's `system_getMetadata` entry must equal the real lisk-sdk 6.1 node's
 * (test/fixtures/chains/dev/metadata.json): commands, events, stores (keys and schemas),
 * endpoints (request and response schemas, incl. getConstants' block-time bounds) and assets.
 */
import { describe, expect, it } from 'vitest';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { createPos } from './pos-test-kit.js';

interface MetadataFixture {
  modules: ({ name: string } & Record<string, unknown>)[];
}

const devConfig = loadJsonFixture<{ modules: { pos: Record<string, unknown> } }>('chains/dev/config.json');
const expected = loadJsonFixture<MetadataFixture>('chains/dev/metadata.json').modules.find((m) => m.name === 'pos');

describe('pos metadata', () => {
  // The dev chain runs with 3 s blocks, which moves the window bounds in getConstants' schema.
  const { pos } = createPos(devConfig.modules.pos, 3);
  const actual = JSON.parse(JSON.stringify({ name: 'pos', ...pos.metadata() })) as Record<string, unknown>;

  it('has the fixture entry', () => {
    expect(expected).toBeDefined();
  });

  for (const part of ['commands', 'events', 'stores', 'endpoints', 'assets'] as const) {
    it(`matches the real node's ${part}`, () => {
      expect(actual[part]).toEqual(expected?.[part]);
    });
  }

  it('matches the whole entry, key for key', () => {
    expect(actual).toEqual(expected);
  });
});
