/**
 * Writes docs/rpc.md from the OpenRPC document that `rpc.discover` answers on a devnet node with
 * block production and the P2P network (assembled in a temporary data directory, never started):
 *
 *   npm run docs:rpc            writes docs/rpc.md
 *   npm run docs:rpc -- --check fails when docs/rpc.md differs from what the node describes
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveNodeConfig } from '../src/config/resolve-node-config.js';
import { assembleNode } from '../src/node.js';
import { openRpcDocument, type OpenRpcDocument } from '../src/rpc/openrpc.js';
import { openRpcMarkdown } from '../src/rpc/openrpc-markdown.js';

export const RPC_DOCS_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'rpc.md');

/** The document of a devnet node's registry. Its version is left out: a release must not make the docs drift. */
export async function devnetOpenRpcDocument(): Promise<OpenRpcDocument> {
  const workDir = mkdtempSync(join(tmpdir(), 'basalt-rpc-docs-'));
  try {
    const plan = resolveNodeConfig({ dataPath: join(workDir, 'devnet'), homeDir: workDir });
    const node = await assembleNode({
      dataPath: plan.dataPath,
      chainConfig: plan.chainConfig,
      genesisBlock: plan.genesisBlock,
      services: { config: plan.config, generatorKeysFile: plan.generatorKeysFile, rpc: false, p2p: true },
    });
    try {
      return openRpcDocument(node.services.registry, 'devnet');
    } finally {
      await node.close();
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The text docs/rpc.md must hold. */
export async function generatedRpcDocs(): Promise<string> {
  return openRpcMarkdown(await devnetOpenRpcDocument());
}

async function main(): Promise<void> {
  const text = await generatedRpcDocs();
  if (process.argv.includes('--check')) {
    if (readFileSync(RPC_DOCS_PATH, 'utf8') !== text) {
      process.stderr.write('docs/rpc.md is out of date: run npm run docs:rpc\n');
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(RPC_DOCS_PATH, text);
  process.stdout.write(`Wrote ${RPC_DOCS_PATH}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
