/**
 * config/devnet/DEV_PASSPHRASES.md: the devnet's public passphrases and what they control,
 * generated with the other devnet files so the document never drifts from the keys.
 */
import { computeMinFee } from '../../chain/min-fee.js';
import { codec } from '../../codec/index.js';
import { encodeLisk32 } from '../../crypto/index.js';
import { reclaimLSKParamsSchema, registerKeysParamsSchema } from '../../modules/legacy/schemas.js';
import { devnetValidatorName } from './devnet-assets.js';
import type { DevnetKeys } from './devnet-keys.js';
import type { DevnetSpec } from './devnet-spec.js';
import { InvariantError } from '../../errors.js';

const LSK = 100_000_000n;
/** Whole LSK with thousands separators (no locale dependence). */
const lsk = (beddows: bigint): string => `${(beddows / LSK).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} LSK`;

/** The fee the documented commands pay (lisk-core's migration guide uses it for registerKeys). */
export const DEVNET_DOC_FEE = 400_000n;

/** The minimum fee of a one-signature `legacy` transaction (1000 beddows per byte). */
function minFee(command: string, params: Buffer, senderPublicKey: Buffer, nonce: bigint): bigint {
  return computeMinFee({ module: 'legacy', command, nonce, senderPublicKey, params });
}

export function devnetPassphrasesDoc(spec: DevnetSpec, keys: DevnetKeys, chainID: Buffer, minimumCertifyHeight: number): string {
  const roundLength = spec.activeValidators + spec.standbyValidators;
  const initHeights = spec.initRounds * roundLength;
  const legacyIndex = spec.legacyValidatorIndex;
  const legacyValidator = keys.validators[legacyIndex];
  if (legacyValidator === undefined) throw new InvariantError('The devnet spec names a legacy validator it does not have.');
  const legacyName = devnetValidatorName(spec, legacyIndex);
  const registered = keys.validators.length - 1;

  const validatorRows = keys.validators.map((validator, index) => {
    const role =
      index < spec.activeValidators ? 'active (init)' : index === legacyIndex ? '**standby, legacy: keys not registered**' : 'standby';
    const stake = index < spec.activeValidators ? spec.activeSelfStake : spec.standbySelfStake;
    return `| ${index} | ${devnetValidatorName(spec, index)} | ${validator.address} | ${role} | ${lsk(stake)} | \`${validator.keyPath}\` |`;
  });
  const accountRows = keys.accounts.map(
    (account, index) => `| ${index} | ${account.address} | ${lsk(spec.devAccountBalance)} | \`${account.keyPath}\` |`,
  );
  const hex = (bytes: Buffer): string => bytes.toString('hex');
  const registerKeysMinFee = minFee(
    'registerKeys',
    codec.encode(registerKeysParamsSchema, {
      blsKey: legacyValidator.blsKey,
      proofOfPossession: legacyValidator.blsProofOfPossession,
      generatorKey: legacyValidator.generatorKey,
    }),
    legacyValidator.publicKey,
    0n,
  );
  const reclaimMinFee = minFee(
    'reclaimLSK',
    codec.encode(reclaimLSKParamsSchema, { amount: spec.legacyBalance }),
    keys.legacy.publicKey,
    0n,
  );
  const standbyFromRound = spec.initRounds + spec.activeValidators;

  return `# DEVNET ONLY: PUBLIC, INSECURE PASSPHRASES

> **WARNING: every passphrase in this file is public. Anyone can sign with these keys.**
> **Never use them, or any account derived from them, on testnet, mainnet or for anything of value.**
> **They exist only so that anyone can run and script Basalt's local development chain.**

Chain ID \`${hex(chainID)}\` (the devnet network byte \`04\`, mainchain), LSK token ID
\`${hex(chainID)}00000000\`, genesis timestamp ${spec.timestamp} (${new Date(spec.timestamp * 1000).toISOString()}).

Each passphrase is the 24-word BIP-39 mnemonic of the entropy SHA-256(label). Keys are derived as
\`lisk-core keys:create --chainid ${spec.keyChainIndex}\` derives them: account key \`m/44'/134'/n'\`,
generator key \`m/25519'/134'/${spec.keyChainIndex}'/n'\`, BLS key \`m/12381/134/${spec.keyChainIndex}/n\`. The key path \`legacy\` is
the Lisk Core 3.x key: Ed25519 seed = SHA-256 of the passphrase.

The commands below run from a checkout as \`npx basalt ...\` and talk to the node of the default data
path \`~/.basalt/devnet\` (\`npm start\`); add \`--data-path DIR\` for another one.

## Validators (label "basalt devnet validators")

\`\`\`
${spec.validatorPassphrase}
\`\`\`

${spec.activeValidators} active + ${spec.standbyValidators} standby validators; \`dev-validators.json\` holds the keys of all ${keys.validators.length} (plain, unencrypted), so
the node forges for every one of them that the chain gives a slot. Each validator account also holds
${lsk(spec.validatorBalance)} available.

| n | name | address | role | self-stake | account key path |
| --- | --- | --- | --- | --- | --- |
${validatorRows.join('\n')}

Like a Lisk Core v4 mainchain migrated from Lisk Core 3.x (\`modules.pos.useInvalidBLSKey: true\`), the
genesis registers every validator **banned and without a BLS key** (lisk-sdk cannot give some genesis
validators a BLS key and not others). The ${spec.activeValidators} init validators produce the first ${spec.initRounds} rounds (heights
1-${initHeights}) all the same: block production needs only their generator keys, and pos gives init validators
their slots during the init rounds whether they are banned or not.

A fresh devnet node submits \`bootstrap_transactions.json\` to its pool, and the first block includes it:
for each of the ${registered} validators other than ${legacyName}, a \`legacy:registerKeys\` with its keys from
\`dev-validators.json\` (BLS key, proof of possession, generator key; this lifts its ban and makes it eligible
for election) and a \`pos:stake\` of 10 LSK on itself. After the init rounds pos elects the validators from
the registered ones.

Certificates (\`genesis.minimumCertifyHeight\` = ${minimumCertifyHeight}): the validator set of the init rounds keeps the
all-zero BLS keys of the genesis, so nothing before height ${initHeights + 1} can be certified, and a certificate may
not skip a change of validator set. The first elected set (round ${spec.initRounds + 1}, heights ${initHeights + 1}-${initHeights + roundLength})
carries the keys registered in block 1; certification starts at its last height, ${minimumCertifyHeight}, which the
validators always sign (they sign the newly finalized height and the last height before each set change).
See \`src/genesis/devnet/devnet-certify-height.ts\`.

## The legacy validator still to register its keys (${legacyName})

${legacyName} (\`${legacyValidator.address}\`) plays a validator migrated from Lisk Core 3.x. Its account is
the \`legacy\` key of the validator passphrase above (public key \`${hex(legacyValidator.publicKey)}\`),
and that key is also its generator key. It is banned and has no BLS key, and it is a standby validator: it has no
slot before it registers, because pos elects only unbanned validators, and only init validators get slots
regardless of bans. The chain finalizes without it.

The keys it registers are the "legacy" entry that
\`npx basalt keys:create --chainid ${spec.keyChainIndex} --add-legacy --count 1 --no-encrypt --output -\` derives from the validator
passphrase (generator key = the legacy key, key path \`legacy\`; BLS key at \`${legacyValidator.blsKeyPath}\`), the same as
entry ${legacyIndex} of \`dev-validators.json\`:

| prompt | answer |
| --- | --- |
| \`Please enter passphrase: \` | the validator passphrase above |
| \`Please enter: blsKey: \` | \`${hex(legacyValidator.blsKey)}\` |
| \`Please enter: proofOfPossession: \` | \`${hex(legacyValidator.blsProofOfPossession)}\` |
| \`Please enter: generatorKey: \` | \`${hex(legacyValidator.generatorKey)}\` |

With the node running, register them:

\`\`\`
npx basalt transaction:create legacy registerKeys ${DEVNET_DOC_FEE} --key-derivation-path=legacy --send
\`\`\`

and answer the prompts as in the table (the passphrase is read without echo). The fee, ${DEVNET_DOC_FEE} beddows, is
above this transaction's minimum of ${registerKeysMinFee}; the account pays it from its available balance. The block that
includes it has the events \`generatorKeyRegistration\`, \`blsKeyRegistration\` and \`legacy:keysRegistered\`;
\`pos_getValidator {"address": "${legacyValidator.address}"}\` then shows \`isBanned: false\`. Eligible
again with its self-stake, it becomes a standby validator once pos chooses standby validators (from round ${standbyFromRound})
and a stake snapshot (taken two rounds ahead) includes it, and the node forges its slots with the keys of
\`dev-validators.json\`.

## Funded accounts (label "basalt devnet accounts")

\`\`\`
${spec.accountPassphrase}
\`\`\`

| n | address | balance | account key path |
| --- | --- | --- | --- |
${accountRows.join('\n')}

## Legacy account to reclaim (label "basalt devnet legacy account")

\`\`\`
${spec.legacyPassphrase}
\`\`\`

A pre-v4 account: its key is the legacy one (Ed25519 seed = SHA-256 of the passphrase), public key
\`${hex(keys.legacy.publicKey)}\`, legacy address \`${hex(keys.legacy.legacyAddress)}\`.
It holds ${lsk(spec.legacyBalance)} in the \`legacy\` module; a \`legacy:reclaimLSK\` transaction with amount
${spec.legacyBalance} signed with this key moves them to ${encodeLisk32(keys.legacy.address)}, the account's v4
address, which starts with ${lsk(spec.legacyFeeBalance)} to pay that transaction's fee (minimum ${reclaimMinFee} beddows):

\`\`\`
npx basalt transaction:create legacy reclaimLSK ${DEVNET_DOC_FEE} --key-derivation-path=legacy --send
\`\`\`

Answer \`Please enter passphrase: \` with this passphrase and \`Please enter: amount: \` with ${spec.legacyBalance}.

## Regenerating

Everything in this folder except \`config.json\` is generated from \`src/genesis/devnet/devnet-spec.ts\`
and \`config.json\`:

\`\`\`
npm run devnet:genesis
\`\`\`

The genesis block alone can be rebuilt with the CLI:

\`\`\`
npx basalt genesis:create --assets config/devnet/genesis_assets.json --config config/devnet/config.json \\
  --timestamp ${spec.timestamp} --output config/devnet/genesis_block.blob
\`\`\`
`;
}
