/**
 * Where relative file paths in a config point. Lisk resolves `genesis.block.fromFile` and
 * `generator.keys.fromFile` against the data path (lisk-sdk getPathFromDataPath), because Lisk
 * Core copies its network folder into `<dataPath>/config/`. Basalt keeps that rule and adds the
 * natural one for each source of the value: a preset's own folder, and the folder of the config
 * file that wrote the path (and the folder above it, so that the config of a Lisk Core data
 * directory works unchanged). The first candidate that exists wins.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Which layer a path value came from. */
export type PathOrigin =
  | { readonly kind: 'data-dir' }
  | { readonly kind: 'preset'; readonly presetDir: string }
  | { readonly kind: 'config-file'; readonly configFile: string };

/** `~` or `~/…` at the start means the home directory (as lisk-sdk and shells do). */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/** The places a path value may mean, most specific first. */
export function pathCandidates(value: string, origin: PathOrigin, dataPath: string, home?: string): string[] {
  const expanded = expandHome(value, home);
  if (isAbsolute(expanded)) return [expanded];
  const inDataPath = resolve(dataPath, expanded);
  switch (origin.kind) {
    case 'data-dir':
      return [inDataPath];
    case 'preset': {
      // A preset writes `./config/<file>` for the copy it will have in the data path.
      const shipped = /^(?:\.\/)?config\/(.+)$/.exec(expanded);
      return shipped ? [join(origin.presetDir, shipped[1] as string), inDataPath] : [resolve(origin.presetDir, expanded), inDataPath];
    }
    case 'config-file': {
      const configDir = dirname(origin.configFile);
      // The last candidate is Lisk Core's data-directory layout: a config at
      // <liskDataPath>/config/config.json whose paths are relative to <liskDataPath>.
      return [resolve(configDir, expanded), inDataPath, resolve(dirname(configDir), expanded)];
    }
  }
}

/** The first existing candidate, or undefined (the caller names every candidate in its error). */
export function firstExisting(candidates: readonly string[]): string | undefined {
  return candidates.find((candidate) => existsSync(candidate));
}
