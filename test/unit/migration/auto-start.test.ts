import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  autoStartBasalt,
  basaltStartCommand,
  isPortFree,
  moveV3DataDir,
  startDetached,
  type AutoStartSteps,
} from '../../../src/migration/auto-start.js';
import { isAlive } from '../../../src/runtime/data-dir-lock.js';

const work = mkdtempSync(join(tmpdir(), 'basalt-auto-start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function listen(host: string, port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * A port free on every address, IPv6 included where the machine has it (what isPortFree asks):
 * one the system picks for 127.0.0.1 alone may be in use on another address (other local servers
 * listen on 127.0.0.x), and is then never free.
 */
async function portFreeEverywhere(): Promise<number> {
  const probe = await listen('::').catch(() => listen('0.0.0.0'));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('auto-start pieces', () => {
  it('sees a port taken on IPv4 loopback or on all addresses as not free', async () => {
    const port = await portFreeEverywhere();
    const loopback = await listen('127.0.0.1', port);
    expect(await isPortFree(port)).toBe(false);
    await new Promise((resolve) => loopback.close(resolve));
    expect(await isPortFree(port)).toBe(true);
    const any = await listen('0.0.0.0');
    expect(await isPortFree((any.address() as AddressInfo).port)).toBe(false);
    await new Promise((resolve) => any.close(resolve));
  });

  it('renames the v3 data directory to <path>-v3 and never overwrites an earlier one', () => {
    const v3 = join(work, 'lisk-core');
    mkdirSync(join(v3, 'data'), { recursive: true });
    expect(moveV3DataDir(`${v3}/`)).toBe(`${v3}-v3`);
    expect(existsSync(join(`${v3}-v3`, 'data'))).toBe(true);
    mkdirSync(v3);
    expect(() => moveV3DataDir(v3)).toThrow(/already exists/);
    expect(existsSync(v3)).toBe(true);
  });

  it('builds the basalt start command from how this process runs and starts it detached', async () => {
    const start = basaltStartCommand('mainnet', '/out', '/out/config.json', {
      execPath: '/usr/bin/node',
      execArgv: ['--import', 'tsx'],
      script: '/app/main.ts',
    });
    expect(start.line).toBe('basalt start --network mainnet --genesis /out/genesis_block.blob --config /out/config.json');
    expect(start.args).toEqual([
      '--import',
      'tsx',
      '/app/main.ts',
      'start',
      '--network',
      'mainnet',
      '--genesis',
      '/out/genesis_block.blob',
      '--config',
      '/out/config.json',
    ]);
    const log = join(work, 'child.log');
    const pid = await startDetached({ command: process.execPath, args: ['-e', 'console.log("started")'], line: '' }, log);
    expect(pid).toBeGreaterThan(0);
    // Read the log once the child has ended: a node process can take seconds to start on a busy
    // machine, longer than any fixed wait would allow.
    while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(log, 'utf8')).toContain('started');
  });
});

describe('the auto-start hand-over', () => {
  const scripted = (answers: boolean[], v3: boolean[], free = true): AutoStartSteps & { asked: string[]; logged: string[] } => {
    const asked: string[] = [];
    const logged: string[] = [];
    return {
      asked,
      logged,
      confirm: async (question) => {
        asked.push(question.split('\n')[0] as string);
        return answers.shift() ?? false;
      },
      log: (line) => logged.push(line),
      v3Answers: async () => v3.shift() ?? false,
      portFree: async () => free,
    };
  };
  const options = (name: string) => {
    const v3DataPath = join(work, name);
    mkdirSync(v3DataPath, { recursive: true });
    return {
      v3DataPath,
      p2pPort: 7667,
      rpcPort: 7887,
      configText: '{}',
      start: { command: 'x', args: [], line: 'basalt start' },
      logFile: join(work, 'log'),
    };
  };

  it('asks again while v3 answers, then moves the data dir and starts', async () => {
    const steps = scripted([true, true, true], [true, false]);
    const opts = options('a');
    expect(await autoStartBasalt(opts, steps, async () => 4242)).toBe(4242);
    expect(steps.asked).toEqual([
      "Please stop Lisk Core v3 to continue. Type 'yes' and press Enter when ready. [yes/no]",
      "Lisk Core v3 still running. Please stop the node, type 'yes' to proceed and 'no' to exit. [yes/no]",
      'Start Basalt with the following configuration? [yes/no]',
    ]);
    expect(existsSync(`${opts.v3DataPath}-v3`)).toBe(true);
  });

  it('imports the v3 history from the moved data directory before the node starts', async () => {
    const steps = scripted([true, true], []);
    const opts = options('import');
    const order: string[] = [];
    steps.importLegacy = async (moved) => {
      order.push(`import ${moved}`);
    };
    await autoStartBasalt(opts, steps, async () => {
      order.push('start');
      return 7;
    });
    expect(order).toEqual([`import ${opts.v3DataPath}-v3`, 'start']);
  });

  it('gives up after three re-checks, as an auto-start failure (recovery code 3), leaving the data dir in place', async () => {
    const opts = options('b');
    await expect(autoStartBasalt(opts, scripted([true, true, true, true], [true, true, true, true]), async () => 1)).rejects.toMatchObject({
      code: 'MIGRATION_AUTO_START',
      message: expect.stringMatching(/still running/),
    });
    expect(existsSync(opts.v3DataPath)).toBe(true);
  });

  it('refuses busy ports and skips the start when the config is declined', async () => {
    await expect(autoStartBasalt(options('c'), scripted([true, true], [false], false), async () => 1)).rejects.toThrow(
      /The P2P port 7667 is in use/,
    );
    const steps = scripted([true, false], [false]);
    expect(await autoStartBasalt(options('d'), steps, async () => 1)).toBeUndefined();
    expect(steps.logged).toEqual(['User did not accept the migrated config. Skipping the Basalt auto-start process.']);
  });
});
