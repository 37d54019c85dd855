/**
 * What the relayer keeps between blocks and across restarts, in an LMDB environment of its own
 * under the node's data directory (`plugins/data/chain-connector`; lisk-sdk keeps the same
 * records in `plugins/data/lisk-framework-chain-connector-plugin.db`): the block headers,
 * aggregate commits and validators it may still certify, the messages it may still deliver, the
 * last message sent and the CCUs it built. Each record is one value, rewritten as a whole in a
 * single write transaction per block; pruning keeps them small.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import type { AggregateCommit } from '../../chain/block-header.js';
import { BlockHeader } from '../../chain/block-header.js';
import { Transaction } from '../../chain/transaction.js';
import { codec, objectSchema, type Schema } from '../../codec/index.js';
import { ccmSchema } from '../../modules/interoperability/schemas.js';
import { writeTransaction } from '../../state/write-transaction.js';
import type { CcmsAtHeight, LastSentCcm, ValidatorsData } from './ccu-builder.js';

/** Where the store lives inside a node's data directory. */
export function connectorStorePath(dataPath: string): string {
  return join(dataPath, 'plugins', 'data', 'chain-connector');
}

const bytesList = (fieldNumber: number) => ({ type: 'array', fieldNumber, items: { dataType: 'bytes' } }) as const;

const headersSchema: Schema = objectSchema('/basalt/chainConnector/blockHeaders', { blockHeaders: bytesList(1) });
const ccusSchema: Schema = objectSchema('/basalt/chainConnector/listOfCCUs', { listOfCCUs: bytesList(1) });

const aggregateCommitsSchema: Schema = objectSchema('/basalt/chainConnector/aggregateCommits', {
  aggregateCommits: {
    type: 'array',
    fieldNumber: 1,
    items: {
      type: 'object',
      required: ['height', 'aggregationBits', 'certificateSignature'],
      properties: {
        height: { dataType: 'uint32', fieldNumber: 1 },
        aggregationBits: { dataType: 'bytes', fieldNumber: 2 },
        certificateSignature: { dataType: 'bytes', fieldNumber: 3 },
      },
    },
  },
});

/** lisk-sdk's validatorsDataSchema, in a list. */
const validatorsSchema: Schema = objectSchema('/basalt/chainConnector/validatorsHashPreimage', {
  validatorsHashPreimage: {
    type: 'array',
    fieldNumber: 1,
    items: {
      type: 'object',
      required: ['validators', 'certificateThreshold', 'validatorsHash'],
      properties: {
        validators: {
          type: 'array',
          fieldNumber: 1,
          items: {
            type: 'object',
            required: ['address', 'blsKey', 'bftWeight'],
            properties: {
              address: { dataType: 'bytes', fieldNumber: 1 },
              blsKey: { dataType: 'bytes', fieldNumber: 2 },
              bftWeight: { dataType: 'uint64', fieldNumber: 3 },
            },
          },
        },
        certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
        validatorsHash: { dataType: 'bytes', fieldNumber: 3 },
      },
    },
  },
});

const embeddedCcm = { type: 'object', required: ccmSchema.required ?? [], properties: ccmSchema.properties } as const;

const ccmRecordsSchema: Schema = objectSchema('/basalt/chainConnector/ccmsFromEvents', {
  ccmsFromEvents: {
    type: 'array',
    fieldNumber: 1,
    items: {
      type: 'object',
      required: ['ccms', 'height', 'inclusionProof', 'outboxSize', 'unproven'],
      properties: {
        ccms: { type: 'array', fieldNumber: 1, items: embeddedCcm },
        height: { dataType: 'uint32', fieldNumber: 2 },
        inclusionProof: {
          type: 'object',
          fieldNumber: 3,
          required: ['siblingHashes', 'bitmap'],
          properties: { siblingHashes: bytesList(1), bitmap: { dataType: 'bytes', fieldNumber: 2 } },
        },
        outboxSize: { dataType: 'uint32', fieldNumber: 4 },
        unproven: { dataType: 'boolean', fieldNumber: 5 },
      },
    },
  },
});

const lastSentCcmSchema: Schema = objectSchema('/basalt/chainConnector/lastSentCCM', {
  ccm: { ...embeddedCcm, fieldNumber: 1 },
  height: { dataType: 'uint32', fieldNumber: 2 },
});

/** Everything the relayer records, as one snapshot. */
export interface ConnectorRecords {
  blockHeaders: BlockHeader[];
  aggregateCommits: AggregateCommit[];
  validatorsHashPreimage: ValidatorsData[];
  ccmRecords: CcmsAtHeight[];
  lastSentCcm: LastSentCcm | undefined;
  sentCcus: Transaction[];
}

const KEYS = {
  ccmRecords: 'ccmsFromEvents',
  blockHeaders: 'blockHeaders',
  aggregateCommits: 'aggregateCommits',
  validatorsHashPreimage: 'validatorsHashPreimage',
  lastSentCcm: 'lastSentCCM',
  sentCcus: 'listOfCCUs',
} as const;

export class ConnectorStore {
  private constructor(private readonly env: RootDatabase<Buffer, string>) {}

  static open(dataPath: string): ConnectorStore {
    const path = connectorStorePath(dataPath);
    mkdirSync(path, { recursive: true });
    return new ConnectorStore(open<Buffer, string>({ path, encoding: 'binary', compression: false }));
  }

  /** Reads every record (empty lists on a new store). */
  read(): ConnectorRecords {
    const decode = <T>(key: string, schema: Schema, field: string): T[] => {
      const bytes = this.env.get(key);
      return bytes === undefined ? [] : (codec.decode<Record<string, T[]>>(schema, bytes)[field] ?? []);
    };
    const lastSent = this.env.get(KEYS.lastSentCcm);
    return {
      blockHeaders: decode<Buffer>(KEYS.blockHeaders, headersSchema, 'blockHeaders').map((bytes) => BlockHeader.fromBytes(bytes)),
      aggregateCommits: decode<AggregateCommit>(KEYS.aggregateCommits, aggregateCommitsSchema, 'aggregateCommits'),
      validatorsHashPreimage: decode<ValidatorsData>(KEYS.validatorsHashPreimage, validatorsSchema, 'validatorsHashPreimage'),
      ccmRecords: decode<CcmsAtHeight>(KEYS.ccmRecords, ccmRecordsSchema, 'ccmsFromEvents'),
      lastSentCcm: lastSent === undefined ? undefined : codec.decode<LastSentCcm>(lastSentCcmSchema, lastSent),
      sentCcus: decode<Buffer>(KEYS.sentCcus, ccusSchema, 'listOfCCUs').map((bytes) => Transaction.fromBytes(bytes)),
    };
  }

  /** Writes the given records in one transaction: all or none. */
  write(records: Partial<ConnectorRecords>): void {
    writeTransaction(this.env, () => {
      const put = (key: string, schema: Schema, value: object) => this.env.putSync(key, codec.encode(schema, value));
      if (records.blockHeaders) put(KEYS.blockHeaders, headersSchema, { blockHeaders: records.blockHeaders.map((header) => header.bytes) });
      if (records.aggregateCommits) put(KEYS.aggregateCommits, aggregateCommitsSchema, { aggregateCommits: records.aggregateCommits });
      if (records.validatorsHashPreimage) {
        put(KEYS.validatorsHashPreimage, validatorsSchema, { validatorsHashPreimage: records.validatorsHashPreimage });
      }
      if (records.ccmRecords) {
        const ccmsFromEvents = records.ccmRecords.map((record) => ({ ...record, unproven: record.unproven === true }));
        put(KEYS.ccmRecords, ccmRecordsSchema, { ccmsFromEvents });
      }
      if (records.lastSentCcm) put(KEYS.lastSentCcm, lastSentCcmSchema, records.lastSentCcm);
      if (records.sentCcus) put(KEYS.sentCcus, ccusSchema, { listOfCCUs: records.sentCcus.map((transaction) => transaction.bytes) });
    });
  }

  async close(): Promise<void> {
    await this.env.close();
  }
}
