/**
 * The rooms of src/ and the direction of their imports (docs/architecture.md): every folder
 * directly under src/ is a room, and so is every file there (`node.ts` shares the room `node`
 * with `node/`). Dependencies point down
 *
 *   runtime, cli → node.ts (knows every room) → rpc → engine → state machine → modules
 *   → state and chain stores → codec, crypto, merkle
 *
 * with config a leaf the modules read types from, and workers a service below rpc that runs
 * byte-level work on chain, state and crypto code. Every `import`, `export ... from` and dynamic
 * `import()` of every source file under src/ is read with the TypeScript pre-processor (comments
 * are skipped), and the forbidden edges below must be absent. There is no import cycle between
 * two rooms, nor between two files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/** The rooms above the modules: none of them may be imported by the modules or anything below. */
const ABOVE_MODULES = ['engine', 'rpc', 'workers', 'runtime', 'cli', 'node', 'plugins', 'legacy-api', 'genesis', 'p2p', 'migration'];

interface Rule {
  readonly from: readonly string[];
  readonly notTo: readonly string[];
  readonly why: string;
}

const RULES: readonly Rule[] = [
  {
    from: ['codec', 'crypto', 'merkle', 'chain', 'state', 'native', 'archive'],
    notTo: ['modules', ...ABOVE_MODULES],
    why: 'the stores and the byte-level rooms are the floor: they know no protocol logic above them',
  },
  { from: ['modules'], notTo: ABOVE_MODULES, why: 'modules run inside the state machine and know nothing of who drives them' },
  {
    from: ['legacy-chain'],
    notTo: ['modules', 'migration', ...ABOVE_MODULES],
    why: 'the v3 history is a store: the migration feeds it through its own block shape, rpc and p2p serve it',
  },
  {
    from: ['config'],
    notTo: ['modules', 'state', ...ABOVE_MODULES],
    why: 'config is a leaf: modules read its types, so it may not read theirs (module checks live in runtime/)',
  },
  {
    from: ['workers'],
    notTo: ['modules', 'engine', 'rpc', 'runtime', 'cli', 'node', 'plugins', 'legacy-api', 'genesis', 'p2p'],
    why: 'worker tasks run byte-level work on chain, state and crypto code; what the RPC answers with lives in chain/json',
  },
  {
    from: ['engine'],
    notTo: ['rpc', 'workers', 'runtime', 'cli', 'node', 'plugins', 'legacy-api', 'p2p'],
    why: 'the engine reaches the pool and the network only through the interfaces it is given',
  },
  {
    from: ['migration'],
    notTo: ['engine', 'rpc', 'workers', 'runtime', 'cli', 'node', 'plugins', 'legacy-api', 'p2p', 'legacy-chain'],
    why: 'the migration reads a v3 database and builds a genesis block through genesis/; the command line and the legacy chain use it, never the reverse',
  },
  { from: ['rpc'], notTo: ['runtime', 'cli', 'node', 'plugins', 'legacy-api', 'p2p'], why: 'rpc serves what node.ts hands it' },
  {
    from: ['metrics'],
    notTo: ['codec', 'crypto', 'merkle', 'chain', 'state', 'native', 'modules', 'config', ...ABOVE_MODULES],
    why: 'the metric registry reads its sources through interfaces the composition root fills, so every room may feed it',
  },
  {
    from: ['p2p'],
    notTo: ['rpc', 'workers', 'runtime', 'cli', 'node', 'plugins', 'legacy-api'],
    why: 'the P2P network serves and feeds the engine; the node wires it to everything else',
  },
];

/** Rooms that only the listed rooms may import. */
const IMPORTED_ONLY_BY: Readonly<Record<string, readonly string[]>> = {
  node: ['runtime', 'cli'], // the composition root: nothing it assembles knows it
  runtime: ['cli'],
  cli: [],
};

/** Room-level cycles that are allowed, each with its reason. None today. */
const ALLOWED_ROOM_CYCLES: readonly (readonly string[])[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function roomOf(file: string): string {
  const [first = ''] = relative(SRC, file).split(sep);
  return first.replace(/\.ts$/, '');
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** Every relative import of every source file, resolved to the file it names. */
function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      edges.push({ from: file, to: resolve(dirname(file), fileName).replace(/\.js$/, '.ts') });
    }
  }
  return edges;
}

/** Strongly connected components with more than one member (Tarjan). */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function graphOf(pairs: readonly Edge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of pairs) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)?.add(to);
  }
  return graph;
}

const fileEdges = importEdges();
const roomEdges = fileEdges
  .map((edge) => ({ from: roomOf(edge.from), to: roomOf(edge.to), file: relative(SRC, edge.from), target: relative(SRC, edge.to) }))
  .filter((edge) => edge.from !== edge.to);

describe('imports run one way between the rooms of src/', () => {
  it('reads the imports (the composition root is imported by the CLI)', () => {
    expect(fileEdges.length).toBeGreaterThan(1000);
    expect(roomEdges.some((edge) => edge.from === 'cli' && edge.to === 'node')).toBe(true);
  });

  for (const rule of RULES) {
    it(`${rule.from.join(', ')} ${rule.from.length === 1 ? 'imports' : 'import'} none of ${rule.notTo.join(', ')}: ${rule.why}`, () => {
      const offending = roomEdges
        .filter((edge) => rule.from.includes(edge.from) && rule.notTo.includes(edge.to))
        .map((edge) => `${edge.file} imports ${edge.target}`);
      expect(offending).toEqual([]);
    });
  }

  for (const [room, importers] of Object.entries(IMPORTED_ONLY_BY)) {
    it(`${room} is imported by ${importers.length > 0 ? `${importers.join(' and ')} only` : 'no other room'}`, () => {
      const offending = roomEdges
        .filter((edge) => edge.to === room && !importers.includes(edge.from))
        .map((edge) => `${edge.file} imports ${edge.target}`);
      expect(offending).toEqual([]);
    });
  }

  it('has no import cycle between rooms', () => {
    const allowed = new Set(ALLOWED_ROOM_CYCLES.map((rooms) => [...rooms].sort().join(' ')));
    const found = cycles(graphOf(roomEdges)).filter((rooms) => !allowed.has(rooms.join(' ')));
    expect(found).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const found = cycles(graphOf(fileEdges)).map((files) => files.map((file) => relative(SRC, file)));
    expect(found).toEqual([]);
  });
});
