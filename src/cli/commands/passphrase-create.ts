import { EXIT_OK, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { writeOrPrintJson } from '../support/json-output.js';
import { generateMnemonic } from '../support/mnemonic.js';

const HELP = `Create a random 24-word BIP-39 passphrase (lisk-core passphrase:create).

Usage: basalt passphrase:create [--output FILE]

  -o, --output FILE     write {"passphrase"} to a file (mode 0600) instead of stdout; a path
                        without an extension is a directory that receives passphrase.json

256 bits of entropy from the operating system's random generator. The passphrase controls the
account: write it down offline; anyone who sees it owns the account.

Examples:
  basalt passphrase:create
  basalt passphrase:create --output ~/secrets/passphrase.json
`;

export const passphraseCreateCommand: CliCommand = {
  name: 'passphrase:create',
  summary: 'Create a random 24-word BIP-39 passphrase',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, { output: { type: 'string', short: 'o' } });
    const result = { passphrase: generateMnemonic() };
    writeOrPrintJson(io.stdout, values.output, 'passphrase.json', result, true);
    return EXIT_OK;
  },
};
