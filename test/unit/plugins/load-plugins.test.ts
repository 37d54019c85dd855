/**
 * loadPlugins over real files in a temporary directory: JavaScript and TypeScript plugins, and
 * every way a plugin file or definition can be unusable (each a ConfigError naming the entry).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import type { Logger } from '../../../src/logger.js';
import { checkPluginDefinition } from '../../../src/plugins/check-plugin-definition.js';
import { loadPlugins } from '../../../src/plugins/load-plugins.js';

function recordingLogger(lines: string[]): Logger {
  const log = (_fields: object, message?: string): void => {
    lines.push(message ?? '');
  };
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

async function configErrorOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadPlugins', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-load-plugins-'));
    writeFileSync(
      join(dir, 'js-plugin.mjs'),
      `export default { name: 'jsPlugin', events: ['tick'], endpoints: { ping: { handle: () => 'pong' } } };\n`,
    );
    writeFileSync(
      join(dir, 'ts-plugin.ts'),
      `const answer: number = 42;\nexport default { endpoints: { answer: { sensitive: true, handle: (): number => answer } } };\n`,
    );
    writeFileSync(join(dir, 'no-default.mjs'), 'export const plugin = {};\n');
    writeFileSync(join(dir, 'throws.mjs'), "throw new Error('boom at import');\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports JavaScript and TypeScript plugins in config order', async () => {
    const lines: string[] = [];
    const plugins = await loadPlugins(
      { jsPlugin: { path: './js-plugin.mjs', size: 1 }, tsPlugin: { path: join(dir, 'ts-plugin.ts') }, lisk: { enabled: true } },
      { logger: recordingLogger(lines), baseDir: dir },
    );
    expect(plugins.names).toEqual(['jsPlugin', 'tsPlugin']);
    expect(plugins.plugins[0]?.options).toEqual({ size: 1 });
    expect(plugins.plugins[0]?.definition.events).toEqual(['tick']);
    expect(plugins.plugins[1]?.definition.endpoints?.answer?.sensitive).toBe(true);
    expect(plugins.warnings).toHaveLength(1);
    expect(lines).toEqual([plugins.warnings[0]]);
  });

  it('runs the built-in chain connector for a chainConnector entry without a path (Lisk Core settings)', async () => {
    const lines: string[] = [];
    const settings = { receivingChainID: '04000001', receivingChainWsURL: 'ws://127.0.0.1:7887/rpc-ws', encryptedPrivateKey: 'kdf=PBKDF2' };
    const plugins = await loadPlugins(
      { chainConnector: settings, lisk: { enabled: true } },
      { logger: recordingLogger(lines), baseDir: dir },
    );
    expect(plugins.names).toEqual(['chainConnector']);
    expect(plugins.plugins[0]?.options).toEqual(settings);
    expect(Object.keys(plugins.plugins[0]?.definition.endpoints ?? {}).sort()).toEqual([
      'authorize',
      'getAggregateCommits',
      'getBlockHeaders',
      'getCrossChainMessages',
      'getLastSentCCM',
      'getSentCCUs',
      'getValidatorsInfoFromPreimage',
    ]);
    expect(plugins.plugins[0]?.definition.endpoints?.authorize?.sensitive).toBe(true);
    expect(plugins.warnings).toEqual([
      '.plugins.lisk has no "path": Basalt only runs plugins it can load from a file; the entry is ignored.',
    ]);
  });

  it('refuses a file without a default export', async () => {
    const message = await configErrorOf(() =>
      loadPlugins({ x: { path: 'no-default.mjs' } }, { logger: recordingLogger([]), baseDir: dir }),
    );
    expect(message).toBe('.plugins.x: the plugin file must export a plugin object as its default export (see src/plugins/README.md)');
  });

  it('reports a file that fails to import', async () => {
    const message = await configErrorOf(() => loadPlugins({ x: { path: 'throws.mjs' } }, { logger: recordingLogger([]), baseDir: dir }));
    expect(message).toBe(`.plugins.x: cannot load ${join(dir, 'throws.mjs')}: boom at import`);
  });

  it('refuses a plugin whose own name differs from its config key', async () => {
    const message = await configErrorOf(() =>
      loadPlugins({ other: { path: 'js-plugin.mjs' } }, { logger: recordingLogger([]), baseDir: dir }),
    );
    expect(message).toBe('.plugins.other: the plugin calls itself "jsPlugin"; its config key must be the same name');
  });
});

describe('checkPluginDefinition', () => {
  const handle = (): null => null;

  it('accepts an empty plugin and a full one', () => {
    expect(checkPluginDefinition({}, 'a', 'k')).toEqual({});
    const full = {
      name: 'a',
      modules: () => [],
      endpoints: { get: { handle, request: { type: 'object' }, sensitive: false } },
      events: ['one', 'two'],
      load: () => undefined,
      unload: () => undefined,
    };
    expect(checkPluginDefinition(full, 'a', 'k')).toBe(full);
  });

  it.each([
    [null, 'k: the plugin file must export a plugin object as its default export (see src/plugins/README.md)'],
    ['text', 'k: the plugin file must export a plugin object as its default export (see src/plugins/README.md)'],
    [{ endpionts: {} }, 'k: unknown plugin member "endpionts" (expected name, modules, endpoints, events, load, unload)'],
    [{ modules: [] }, 'k: "modules" must be a function'],
    [{ load: 'now' }, 'k: "load" must be a function'],
    [{ unload: 1 }, 'k: "unload" must be a function'],
    [{ endpoints: [] }, 'k: "endpoints" must be an object'],
    [{ endpoints: { 'get-x': { handle } } }, 'k: endpoint "get-x": a method name must be letters and digits, starting with a letter'],
    [{ endpoints: { get: null } }, 'k: endpoint "get" must be an object with a handle function'],
    [{ endpoints: { get: {} } }, 'k: endpoint "get": "handle" must be a function'],
    [{ endpoints: { get: { handle, request: 'schema' } } }, 'k: endpoint "get": "request" must be a JSON schema object'],
    [{ endpoints: { get: { handle, sensitive: 'yes' } } }, 'k: endpoint "get": "sensitive" must be true or false'],
    [{ events: 'tick' }, 'k: "events" must be an array of event names'],
    [{ events: ['a_b'] }, 'k: event "a_b" must be letters and digits, starting with a letter'],
    [{ events: [3] }, 'k: event 3 must be letters and digits, starting with a letter'],
    [{ events: ['tick', 'tick'] }, 'k: event "tick" is declared twice'],
  ])('refuses %j', (definition, message) => {
    expect(() => checkPluginDefinition(definition, 'a', 'k')).toThrow(new ConfigError(message));
  });

  it.each(['app', 'chain', 'consensus', 'generator', 'network', 'state', 'system', 'txpool'])(
    'refuses the engine namespace %s as a name',
    (name) => {
      expect(() => checkPluginDefinition({}, name, 'k')).toThrow(`k: "${name}" is an engine namespace; choose another plugin name`);
    },
  );
});
