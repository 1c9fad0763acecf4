// Verifying a packet row just read from the store. A mismatch is tampering, or the store
// serving bytes it cached while its file was damaged; the store is told either way
// (Storage.distrust), so a repaired file is read from disk again instead of failing until
// the process restarts.
import type { Storage } from '../storage/storage.js';
import type { PacketRow } from './archive.js';
import { PacketVerificationError, verifyStoredPacket, type VerifiedPacket } from './verify.js';

/** verifyStoredPacket of a row `storage` answered; throws PacketVerificationError as it does. */
export function verifyReadPacket(storage: Pick<Storage, 'distrust'>, row: PacketRow): VerifiedPacket {
  try {
    return verifyStoredPacket(row);
  } catch (error) {
    if (error instanceof PacketVerificationError) storage.distrust(error.message);
    throw error;
  }
}
