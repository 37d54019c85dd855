/**
 * `basalt genesis:create`: writes the binary genesis block and prints its ID and roots; usage
 * mistakes are UsageErrors (exit 1 through the CLI), bad inputs plain errors (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { genesisCreateCommand } from '../../src/cli/commands/genesis-create.js';
import { EXIT_OK, UsageError, type CliIO } from '../../src/cli/command.js';
import { PRESETS_DIR } from '../../src/config/presets.js';
import { fixturePath, loadBinaryFixture } from '../support/fixtures.js';

function captureIO(): CliIO & { out: () => string } {
  let out = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  return { stdout: sink((text) => (out += text)), stderr: sink(() => undefined), out: () => out };
}

describe('genesis:create', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-genesis-create-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the dev chain genesis block and prints its ID and roots', async () => {
    const output = join(dir, 'nested', 'genesis_block.blob');
    const io = captureIO();
    const code = await genesisCreateCommand.run(
      [
        '--assets',
        fixturePath('chains/dev/genesis_assets.json'),
        '--config',
        fixturePath('chains/dev/config.json'),
        '--timestamp',
        '1795323732',
        '--output',
        output,
      ],
      io,
    );
    expect(code).toBe(EXIT_OK);
    expect(readFileSync(output).equals(loadBinaryFixture('chains/dev/genesis_block.blob'))).toBe(true);
    expect(JSON.parse(io.out())).toEqual({
      id: '8befdc28d6af5b3a195e91e166d9170a47642d7f8d52837d219d535f357d3700',
      height: 0,
      timestamp: 1795323732,
      assetRoot: 'a53a969485f1bfe02787e0dbe3fb20ca23bd9b96e423d03274f4c7f9f6ff8a50',
      stateRoot: '293f1513a92079d937a82483a5f9f4d013e8633159851a05f7c5f30e10601050',
      eventRoot: 'e150435ab2d841c4bc63f44ff9bde33a827744bcc82996ab2e37cc7725353437',
      validatorsHash: '84f3ed67cec1eb7bd6dc3ec01b0d0323021c1e86a3dc760b9b92041c28da31ac',
      output,
    });
  });

  it('builds the shipped devnet genesis from the devnet preset', async () => {
    const output = join(dir, 'devnet.blob');
    const devnet = join(PRESETS_DIR, 'devnet');
    const code = await genesisCreateCommand.run(
      ['--assets', join(devnet, 'genesis_assets.json'), '--network', 'devnet', '--timestamp', '1735689600', '--output', output],
      captureIO(),
    );
    expect(code).toBe(EXIT_OK);
    expect(readFileSync(output).equals(readFileSync(join(devnet, 'genesis_block.blob')))).toBe(true);
  });

  it('reports usage mistakes as UsageError', async () => {
    const assets = fixturePath('chains/dev/genesis_assets.json');
    const config = fixturePath('chains/dev/config.json');
    const out = join(dir, 'x.blob');
    await expect(genesisCreateCommand.run(['--config', config, '--output', out], captureIO())).rejects.toThrow(
      new UsageError('--assets is required.'),
    );
    await expect(genesisCreateCommand.run(['--assets', assets, '--config', config], captureIO())).rejects.toThrow('--output is required.');
    await expect(genesisCreateCommand.run(['--assets', assets, '--output', out], captureIO())).rejects.toThrow(
      '--config or --network is required.',
    );
    await expect(
      genesisCreateCommand.run(['--assets', assets, '--config', config, '--output', out, '--timestamp', '-5'], captureIO()),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      genesisCreateCommand.run(['--assets', assets, '--config', config, '--output', out, '--height', '1.5'], captureIO()),
    ).rejects.toThrow('--height must be an integer from 0 to 4294967295.');
    await expect(
      genesisCreateCommand.run(['--assets', assets, '--config', config, '--output', out, '--previous-block-id', 'ab'], captureIO()),
    ).rejects.toThrow('--previous-block-id must be 32 bytes');
    await expect(genesisCreateCommand.run(['--bogus'], captureIO())).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses an unknown network and names a bad config key', async () => {
    const badConfig = join(dir, 'bad-config.json');
    writeFileSync(badConfig, JSON.stringify({ genesis: { chainID: '04000000', blockTime: 2 } }));
    await expect(
      genesisCreateCommand.run(
        ['--assets', fixturePath('chains/dev/genesis_assets.json'), '--config', badConfig, '--output', join(dir, 'z.blob')],
        captureIO(),
      ),
    ).rejects.toThrow('.genesis.blockTime: must be >= 3');
    await expect(
      genesisCreateCommand.run(
        ['--assets', fixturePath('chains/dev/genesis_assets.json'), '--network', 'nonet', '--output', join(dir, 'y.blob')],
        captureIO(),
      ),
    ).rejects.toThrow('Network nonet is not supported');
  });
});
