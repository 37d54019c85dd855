/**
 * scripts/interop-pair.ts, reduced: a Basalt mainchain and a Basalt sidechain (the interop-dev
 * pair's genesis blocks) register each other, their chain connectors relay CCUs both ways, and
 * 1000 LSK sent from the mainchain arrive on the sidechain. Each node on its own loopback address.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/node-process.js';

describe('interop pair script', () => {
  let dataRoot = '';
  beforeAll(() => {
    dataRoot = mkdtempSync(join(tmpdir(), 'basalt-interop-pair-'));
  });
  afterAll(() => {
    if (dataRoot !== '') rmSync(dataRoot, { recursive: true, force: true });
  });

  it('relays CCUs both ways and delivers a cross-chain LSK transfer', { timeout: 420_000 }, async () => {
    const args = ['--import', 'tsx', join(ROOT, 'scripts/interop-pair.ts'), '--reduced', '--fresh', '--data-root', dataRoot];
    const hosts = ['--mainchain-host', '127.0.0.144', '--sidechain-host', '127.0.0.145', '--timeout-seconds', '360'];
    const child = spawn(process.execPath, [...args, ...hosts], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output, output).toContain('interop pair: OK');
    expect(code).toBe(0);
    expect(output).toMatch(/mainchain: CCUs from sidechain included/);
    expect(output).toMatch(/sidechain: CCUs from mainchain included/);
    expect(output).toMatch(/the transfer arrived/);
  });
});
