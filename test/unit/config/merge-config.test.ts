/** Config layering: objects merge, arrays and scalars replace, null/undefined keep the lower value. */
import { describe, expect, it } from 'vitest';
import { cloneConfigValue, mergeConfigLayers } from '../../../src/config/merge-config.js';

describe('mergeConfigLayers', () => {
  it('merges objects key by key and lets higher layers win', () => {
    const defaults = { rpc: { port: 7887, host: '127.0.0.1', modes: ['ipc'] }, system: { logLevel: 'info' } };
    const preset = { rpc: { modes: ['ipc', 'ws', 'http'], allowedMethods: ['generator', 'system'] } };
    const file = { rpc: { port: 8000, allowedMethods: [] }, system: { logLevel: null } };
    const flags = { rpc: { port: 8001 }, network: { port: 7700 } };
    expect(mergeConfigLayers(defaults, preset, file, flags)).toEqual({
      rpc: { port: 8001, host: '127.0.0.1', modes: ['ipc', 'ws', 'http'], allowedMethods: [] },
      system: { logLevel: 'info' },
      network: { port: 7700 },
    });
  });

  it('replaces arrays whole, including with an empty array', () => {
    const merged = mergeConfigLayers(
      {
        network: {
          seedPeers: [
            { ip: 'a', port: 1 },
            { ip: 'b', port: 2 },
          ],
        },
      },
      { network: { seedPeers: [{ ip: 'c' }] } },
    );
    expect(merged).toEqual({ network: { seedPeers: [{ ip: 'c' }] } });
  });

  it('replaces genesis.block whole, so a blob does not sit next to a default fromFile', () => {
    const merged = mergeConfigLayers(
      { genesis: { block: { fromFile: './config/genesis_block.blob' }, blockTime: 10 } },
      { genesis: { block: { blob: '0a' } } },
    );
    expect(merged).toEqual({ genesis: { block: { blob: '0a' }, blockTime: 10 } });
    // Elsewhere objects still merge.
    expect(mergeConfigLayers({ modules: { pos: { a: 1 } } }, { modules: { pos: { b: 2 } } })).toEqual({ modules: { pos: { a: 1, b: 2 } } });
  });

  it('never changes or shares its inputs', () => {
    const low = { rpc: { modes: ['ipc'] } };
    const high = { rpc: { allowedMethods: ['x'] } };
    const merged = mergeConfigLayers(low, high) as { rpc: { modes: string[]; allowedMethods: string[] } };
    merged.rpc.modes.push('ws');
    merged.rpc.allowedMethods.push('y');
    expect(low).toEqual({ rpc: { modes: ['ipc'] } });
    expect(high).toEqual({ rpc: { allowedMethods: ['x'] } });
    const value = { a: [{ b: 1 }] };
    const copy = cloneConfigValue(value);
    expect(copy).toEqual(value);
    expect(copy.a[0]).not.toBe(value.a[0]);
  });
});
