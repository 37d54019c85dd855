/**
 * The data path of the node a command talks to (docs/protocol/cli.md): `--data-path`, else
 * `LISK_DATA_PATH`, else Basalt's default for the devnet, `~/.basalt/devnet` (the default of
 * `basalt start`). A leading `~` is the home directory.
 */
import { resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';

export const DEFAULT_DATA_PATH = '~/.basalt/devnet';

/** The absolute data path for a command. */
export function resolveDataPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(expandHome(flag ?? env.LISK_DATA_PATH ?? DEFAULT_DATA_PATH));
}
