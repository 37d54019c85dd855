/**
 * The forger database of a Lisk Core 3 node (`data/forger.db`): `forger:previouslyForged` holds,
 * per delegate the node forged for, the last height it forged and the BFT heights it had
 * committed to (lisk-framework 0.9 `node/forger`). Basalt's migration turns them into v4
 * generator info, so a validator cannot sign a block that contradicts what it signed in v3.
 */
import { withV3Database } from './v3-database.js';
import { V3_PREFIX, v3Key } from './v3-keys.js';
import { type V3PreviouslyForgedEntry, v3PreviouslyForgedSchema } from './v3-schemas.js';

export interface PreviouslyForged {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly maxHeightPreviouslyForged: number;
}

/** The `forger:previouslyForged` entries keyed by hex address; empty when the node never forged. */
export async function readPreviouslyForged(forgerDbPath: string): Promise<Map<string, PreviouslyForged>> {
  return withV3Database(forgerDbPath, async (db) => {
    const stored = await db.getDecoded<{ previouslyForgedInfo: V3PreviouslyForgedEntry[] }>(
      v3Key(V3_PREFIX.previouslyForged),
      v3PreviouslyForgedSchema,
    );
    const result = new Map<string, PreviouslyForged>();
    for (const { generatorAddress, height, maxHeightPrevoted, maxHeightPreviouslyForged } of stored?.previouslyForgedInfo ?? []) {
      result.set(generatorAddress.toString('hex'), { height, maxHeightPrevoted, maxHeightPreviouslyForged });
    }
    return result;
  });
}
