import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodeOf, recoveryCommands, renderCommandsFile, validatorCommands } from '../../../src/migration/commands-file.js';
import { MigrationError } from '../../../src/migration/migration-error.js';
import {
  configuredDelegates,
  forgingStatusFromForgerDb,
  forgingStatusFromNode,
  renderForgingStatus,
  type ForgingStatusEntry,
} from '../../../src/migration/forging-status.js';
import type { PreviouslyForged } from '../../../src/migration/v3/forger-db.js';
import { MIGRATION_FIXTURES, migrationFixturesPresent } from './migration-fixtures.js';

const OUTPUT = '/tmp/basalt-migration-output';

describe('commandsToExecute.txt', () => {
  it('lists nothing (no file) when there is nothing to run', () => {
    expect(renderCommandsFile([], [])).toBeUndefined();
  });

  it('falls back to the snapshot height for missing generator info', () => {
    const lines = validatorCommands([{ address: 'ab'.repeat(20), forging: true, lskAddress: 'lskx' }], {
      chainId: 1,
      snapshotHeight: 500,
      outputDir: OUTPUT,
    });
    expect(lines).toContain(
      `basalt endpoint:invoke generator_setStatus '{ "address":"lskx", "height": 500, "maxHeightGenerated":  500, "maxHeightPrevoted":  500 }' --pretty`,
    );
    expect(lines).toContain(`basalt keys:create --chainid 1 --output ${OUTPUT}/keys.json --add-legacy`);
  });

  it('lists the recovery blocks of each error code in the migrator order', () => {
    const options = { genesisCommand: 'G', backupDataDirCommand: 'MV', legacyImportCommand: 'CP', startCommand: 'START' };
    const commandsOf = (code: 0 | 1 | 2 | 3 | 4 | 5) =>
      recoveryCommands(code, options).filter((line) => ['G', 'MV', 'CP', 'START'].includes(line));
    expect(commandsOf(0)).toEqual(['G', 'MV', 'CP', 'START']);
    expect(commandsOf(2)).toEqual(['G', 'MV', 'CP', 'START']);
    expect(commandsOf(3)).toEqual(['START']);
    expect(commandsOf(4)).toEqual(['MV', 'CP', 'START']);
    expect(commandsOf(5)).toEqual(['CP', 'START']);
    expect(recoveryCommands(0, { ...options, genesisCommand: undefined })).toContain('undefined');
    expect(recoveryCommands(5, options)).toContain(
      '## NOTE: basalt imports the v3 blocks into its own legacy chain store instead of reading a copied legacy.db',
    );
    const text = renderCommandsFile(recoveryCommands(3, options), []) as string;
    expect(text).toBe(
      [
        '## Please execute the following commands to finish the migration successfully:',
        '------------------------------------------------------------------------------',
        '\n',
        '\n',
        '## Lisk Core v4 start command - Please modify if necessary',
        '\n',
        'START',
        '\n',
        '-----------------------------------------------------',
        '\n',
      ].join('\n'),
    );
  });
});

describe('recovery code of a failure', () => {
  it('follows the migration error code; the uncoded failures of the migrator and foreign errors have none', () => {
    const codeOf = (code: ConstructorParameters<typeof MigrationError>[0]) => recoveryCodeOf(new MigrationError(code, 'x'));
    expect(codeOf('MIGRATION_CONFIG_INVALID')).toBe(1);
    expect(codeOf('MIGRATION_GENESIS_FAILED')).toBe(2);
    expect(codeOf('MIGRATION_AUTO_START')).toBe(3);
    expect(codeOf('MIGRATION_V3_BACKUP')).toBe(4);
    expect(codeOf('MIGRATION_LEGACY_IMPORT')).toBe(5);
    expect(codeOf('MIGRATION_KEY_MISSING')).toBeUndefined();
    expect(codeOf('MIGRATION_VOTE_WEIGHTS_MISSING')).toBeUndefined();
    expect(recoveryCodeOf(Object.assign(new Error('x'), { code: 'MIGRATION_GENESIS_FAILED' }))).toBeUndefined();
  });
});

describe('forgingStatus.json', () => {
  it('adds the lisk32 address to what the node answers and keeps absent records absent', () => {
    const entries = forgingStatusFromNode([{ address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5', forging: false }]);
    expect(entries).toEqual([
      { address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5', forging: false, lskAddress: 'lsktrqfj84n34tn97vraaq2ztmrgwgwakmqyskqw4' },
    ]);
  });

  it('reads the configured delegates and forging.force of a v3 config', () => {
    expect(configuredDelegates({ forging: { force: true, delegates: [{ address: 'aa' }, { encryptedPassphrase: 'x' }] } })).toEqual({
      addresses: ['aa'],
      force: true,
    });
    expect(configuredDelegates({})).toEqual({ addresses: [], force: false });
  });

  it('builds offline entries with the record only for delegates that have one', () => {
    const records = new Map<string, PreviouslyForged>([
      ['9cabee3d27426676b852ce6b804cb2fdff7cd0b5', { height: 261, maxHeightPrevoted: 0, maxHeightPreviouslyForged: 158 }],
    ]);
    const entries = forgingStatusFromForgerDb(
      records,
      ['9CABEE3D27426676B852CE6B804CB2FDFF7CD0B5', '463e7e879b7bdc6a97ec02a2a603aa1a46a04c80'],
      false,
    );
    expect(entries).toEqual([
      {
        address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5',
        forging: false,
        height: 261,
        maxHeightPrevoted: 0,
        maxHeightPreviouslyForged: 158,
        lskAddress: 'lsktrqfj84n34tn97vraaq2ztmrgwgwakmqyskqw4',
      },
      { address: '463e7e879b7bdc6a97ec02a2a603aa1a46a04c80', forging: false, lskAddress: 'lsk32gnhxjs887bqmgoz6y6ozh6c4c6ztpz7wjfa9' },
    ]);
  });
});

describe.skipIf(!migrationFixturesPresent)('against the real lisk-migrator 2.0.1 outputs (dev case, snapshot 309)', () => {
  // Read in beforeAll: a skipped describe still runs its body, and the file is absent then.
  let capture = '';
  let captured: ForgingStatusEntry[] = [];
  beforeAll(() => {
    capture = readFileSync(join(MIGRATION_FIXTURES, 'dev', 'capture', 'forgingStatus.json'), 'utf8');
    captured = JSON.parse(capture) as ForgingStatusEntry[];
  });

  it('rebuilds forgingStatus.json byte for byte, online (from the node answer) and offline (forger.db records + config delegates)', () => {
    const nodeAnswer = captured.map(({ lskAddress: _lsk, ...status }) => status);
    expect(renderForgingStatus(forgingStatusFromNode(nodeAnswer))).toBe(capture);
    const records = new Map(
      captured.map((entry) => [
        entry.address,
        {
          height: entry.height as number,
          maxHeightPrevoted: entry.maxHeightPrevoted as number,
          maxHeightPreviouslyForged: entry.maxHeightPreviouslyForged as number,
        },
      ]),
    );
    const config = JSON.parse(readFileSync(join(MIGRATION_FIXTURES, 'dev', 'h309-mainnet', 'backup-config.json'), 'utf8')) as unknown;
    const { addresses, force } = configuredDelegates(config);
    expect(renderForgingStatus(forgingStatusFromForgerDb(records, addresses, force))).toBe(capture);
  });

  for (const [network, chainId] of [
    ['mainnet', 0],
    ['testnet', 1],
  ] as const) {
    it(`writes commandsToExecute.txt byte for byte (${network}), with "lisk-core" read as "basalt" and "<output>" as the output dir`, () => {
      const expected = readFileSync(join(MIGRATION_FIXTURES, 'dev', `h309-${network}`, 'commandsToExecute.txt'), 'utf8')
        .replaceAll('lisk-core ', 'basalt ')
        .replaceAll('<output>', OUTPUT);
      const text = renderCommandsFile([], validatorCommands(captured, { chainId, snapshotHeight: 309, outputDir: OUTPUT }));
      expect(text).toBe(expected);
    });
  }
});
