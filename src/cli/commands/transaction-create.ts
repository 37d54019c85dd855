import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { computeMinFee } from '../../chain/min-fee.js';
import { Transaction } from '../../chain/transaction.js';
import { codec, encodeLisk32Address, type Schema } from '../../codec/index.js';
import {
  addressFromPublicKey,
  ed25519KeyPairFromPassphrase,
  legacyKeyPairFromPassphrase,
  MESSAGE_TAG_TRANSACTION,
  parseDerivationPath,
  signData,
} from '../../crypto/index.js';
import { createChainModules } from '../../modules/chain-modules.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { encodeParams, promptParams } from '../support/command-params.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { connectNode, type NodeClient } from '../support/node-client.js';
import { createPrompter, type Prompter, type PromptIO } from '../support/prompt.js';
import { readSecret, SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Create and sign a transaction, and optionally send it (lisk-core transaction:create).

Usage: basalt transaction:create MODULE COMMAND FEE [--params JSON | --file FILE]
         [--key-derivation-path PATH] [--send] [--json] [--pretty]
         [--offline --chain-id HEX --nonce N] [--no-signature --sender-public-key HEX]
         [--passphrase TEXT] [--data-path DIR] [--url URL]

  MODULE COMMAND           e.g. token transfer, pos stake, legacy registerKeys
  FEE                      the fee in beddows (1 LSK = 10^8 beddows)
  -a, --params JSON        the command's params in JSON (uint64 values as strings or numbers,
                           bytes as hex, addresses lisk32); without --params or --file you are
                           asked for each param the command's schema lists
  -f, --file FILE          read the params from a .json file
  -k, --key-derivation-path PATH   default m/44'/134'/0'; "legacy" = the Lisk Core 3.x key
                           (sha256 of the passphrase)
  -p, --passphrase TEXT    the sender's passphrase (RISK, see below)   [BASALT_PASSPHRASE]
      --nonce N            default: the account's nonce on the node
      --chain-id HEX       8 hex characters; checked against the node unless --offline
      --offline            no node: needs --chain-id and --nonce; the modules of a Lisk Core 4
                           mainchain (legacy included) give the params schemas
      --no-signature       an unsigned transaction for --sender-public-key (no passphrase)
  -s, --sender-public-key HEX
      --send               post the transaction to the node (txpool_postTransaction)
  -j, --json               also print the transaction as JSON (params decoded)
      --pretty             indent the JSON output
  -d, --data-path DIR      the node's data path (default ~/.basalt/devnet)   [LISK_DATA_PATH]
      --url URL            talk to the node over HTTP/WebSocket instead of IPC

Prints {"transaction":"<hex>"}; with --json then {"transaction":{...}}; with --send then
"Transaction with id: '<id>' received by node.". Warns on stderr when FEE is below the
size-based minimum fee (the node would refuse it).

${SECRETS_RISK_NOTE}

Examples:
  basalt transaction:create token transfer 100000000 --params '{"tokenID":"0400000000000000","amount":"100000000","recipientAddress":"lsks4hkwer2d588ee4joya3rca9tgb4whqo6vedxz","data":"send token"}' --send
  basalt transaction:create legacy registerKeys 400000 --key-derivation-path=legacy --send
  basalt transaction:create token transfer 100000000 --offline --chain-id 00000000 --nonce 1 --file ./params.json --json
`;

const DEFAULT_KEY_DERIVATION_PATH = "m/44'/134'/0'";
const MAX_UINT64 = 2n ** 64n - 1n;

interface ModuleMetadataJSON {
  name: string;
  commands: { name: string; params: Schema }[];
}

/** The params schema of MODULE COMMAND, with lisk-core's messages for unknown ones. */
export function commandParamsSchema(modules: readonly ModuleMetadataJSON[], module: string, command: string): Schema {
  const found = modules.find((entry) => entry.name === module);
  if (!found) throw new Error(`Module: ${module} is not registered.`);
  const entry = found.commands.find((candidate) => candidate.name === command);
  if (!entry) throw new Error(`Module: ${module} Command: ${command} is not registered.`);
  return entry.params;
}

/** The command schemas of the chain of `chainID` (a Lisk Core 4 mainchain, or a sidechain), for --offline. */
function offlineModules(chainID: Buffer): ModuleMetadataJSON[] {
  const { list } = createChainModules({
    genesisConfig: { chainID, blockTime: 10, bftBatchSize: 103, maxTransactionsSize: 15 * 1024, minimumCertifyHeight: 1 },
    moduleConfigs: {},
    withLegacy: true,
  });
  return list.map((module) => ({
    name: module.name,
    commands: module.commands.map((command) => ({ name: command.name, params: command.schema })),
  }));
}

function uint64Flag(name: string, value: string): bigint {
  if (!/^\d+$/.test(value) || BigInt(value) > MAX_UINT64) throw new UsageError(`${name} must be a whole number of at most 2^64-1.`);
  return BigInt(value);
}

export const transactionCreateCommand: CliCommand = {
  name: 'transaction:create',
  summary: 'Create and sign a transaction; --send posts it to the node',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values, positionals } = parseFlags(
      argv,
      {
        params: { type: 'string', short: 'a' },
        file: { type: 'string', short: 'f' },
        'key-derivation-path': { type: 'string', short: 'k' },
        passphrase: { type: 'string', short: 'p' },
        nonce: { type: 'string' },
        'chain-id': { type: 'string' },
        offline: { type: 'boolean' },
        'no-signature': { type: 'boolean' },
        'sender-public-key': { type: 'string', short: 's' },
        send: { type: 'boolean' },
        json: { type: 'boolean', short: 'j' },
        pretty: { type: 'boolean' },
        'data-path': { type: 'string', short: 'd' },
        url: { type: 'string' },
      },
      3,
    );
    const [module, command, feeText] = positionals;
    if (module === undefined || command === undefined || feeText === undefined)
      throw new UsageError('MODULE, COMMAND and FEE are required.');
    const fee = uint64Flag('FEE', feeText);
    const offline = values.offline === true;
    if (offline && (values['chain-id'] === undefined || values.nonce === undefined))
      throw new UsageError('--offline needs --chain-id and --nonce.');
    if (offline && (values.send === true || values['data-path'] !== undefined || values.url !== undefined)) {
      throw new UsageError('--offline cannot be used with --send, --data-path or --url.');
    }
    if (values.params !== undefined && values.file !== undefined)
      throw new UsageError('Give the params with --params or --file, not both.');
    if (values.file !== undefined && extname(values.file) !== '.json') throw new UsageError('Not a JSON file.');
    const chainIDFlag = values['chain-id'];
    if (chainIDFlag !== undefined && !/^[0-9a-fA-F]{8}$/.test(chainIDFlag)) throw new UsageError('--chain-id must be 8 hex characters.');
    const nonceFlag = values.nonce === undefined ? undefined : uint64Flag('--nonce', values.nonce);
    const unsigned = values['no-signature'] === true;
    let senderPublicKey: Buffer | undefined;
    if (unsigned) {
      const key = values['sender-public-key'];
      if (key === undefined || !/^[0-9a-fA-F]{64}$/.test(key))
        throw new UsageError('--no-signature needs --sender-public-key (32 bytes in hex).');
      senderPublicKey = Buffer.from(key, 'hex');
    }
    const keyPath = values['key-derivation-path'] ?? DEFAULT_KEY_DERIVATION_PATH;
    if (keyPath !== 'legacy') {
      try {
        parseDerivationPath(keyPath);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    let paramsJson: unknown;
    if (values.params !== undefined || values.file !== undefined) {
      let text: string;
      try {
        text = values.params ?? readFileSync(values.file as string, 'utf8');
      } catch {
        throw new Error('No such file or directory.');
      }
      try {
        paramsJson = JSON.parse(text);
      } catch {
        throw new UsageError('The params are not valid JSON.');
      }
    }

    let prompter: Prompter | undefined;
    const ask = () => (prompter ??= createPrompter(io));
    let client: NodeClient | undefined;
    try {
      let chainID: Buffer;
      let modules: ModuleMetadataJSON[];
      if (offline) {
        chainID = Buffer.from(chainIDFlag as string, 'hex');
        modules = offlineModules(chainID);
      } else {
        client = await connectNode(nodeConnection(values));
        const nodeInfo = await client.invoke<{ chainID: string }>('system_getNodeInfo');
        if (chainIDFlag !== undefined && chainIDFlag.toLowerCase() !== nodeInfo.chainID) {
          throw new Error(`Invalid chainID specified, actual: ${chainIDFlag}, expected: ${nodeInfo.chainID}.`);
        }
        chainID = Buffer.from(nodeInfo.chainID, 'hex');
        modules = (await client.invoke<{ modules: ModuleMetadataJSON[] }>('system_getMetadata')).modules;
      }
      const paramsSchema = commandParamsSchema(modules, module, command);

      // Keys first, then params: lisk-core's order of questions.
      let privateKey: Buffer | undefined;
      if (!unsigned) {
        const passphrase = await readSecret(ask, { kind: 'passphrase', flag: values.passphrase, confirm: false });
        const keys = keyPath === 'legacy' ? legacyKeyPairFromPassphrase(passphrase) : ed25519KeyPairFromPassphrase(passphrase, keyPath);
        senderPublicKey = keys.publicKey;
        privateKey = keys.privateKey;
      }
      const sender = senderPublicKey as Buffer;

      let nonce = nonceFlag ?? 0n;
      if (client !== undefined) {
        const account = await client.invoke<{ nonce: string }>('auth_getAuthAccount', {
          address: encodeLisk32Address(addressFromPublicKey(sender)),
        });
        const accountNonce = BigInt(account.nonce);
        if (nonceFlag !== undefined && nonceFlag < accountNonce) {
          throw new Error(`Invalid nonce specified, actual: ${nonceFlag}, expected: ${accountNonce}`);
        }
        nonce = nonceFlag ?? accountNonce;
      }

      paramsJson ??= await promptParams(paramsSchema, ask());
      prompter?.close();
      const params = encodeParams(paramsSchema, paramsJson);

      let transaction = new Transaction({ module, command, nonce, fee, senderPublicKey: sender, params: params.bytes, signatures: [] });
      const minFee = computeMinFee(transaction);
      if (fee < minFee) {
        io.stderr.write(`Warning: FEE ${fee} is below the minimum fee ${minFee} for this transaction's size; the node will refuse it.\n`);
      }
      if (privateKey !== undefined) {
        transaction = transaction.withSignatures([signData(MESSAGE_TAG_TRANSACTION, chainID, transaction.signingBytes(), privateKey)]);
        privateKey.fill(0);
        transaction.validate();
      }

      const pretty = values.pretty === true;
      const hex = transaction.bytes.toString('hex');
      printJson(io.stdout, { transaction: hex }, pretty);
      if (values.json === true) {
        const { params: _encoded, id, ...rest } = transaction.toJSON();
        printJson(io.stdout, { transaction: { ...rest, params: codec.toJSON(paramsSchema, params.value), id } }, pretty);
      }
      if (values.send === true && client !== undefined) {
        const { transactionId } = await client.invoke<{ transactionId: string }>('txpool_postTransaction', { transaction: hex });
        io.stdout.write(`Transaction with id: '${transactionId}' received by node.\n`);
      }
      return EXIT_OK;
    } finally {
      prompter?.close();
      await client?.close();
    }
  },
};
