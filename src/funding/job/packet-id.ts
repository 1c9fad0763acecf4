// Packet ids as the read API serves them: capture instant + 32 lowercase hex. ASCII
// digits only, so the id is always a safe single path segment.

export const PACKET_ID_PATTERN = /^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z-[0-9a-f]{32}$/;

export function isPacketId(value: unknown): value is string {
  return typeof value === 'string' && PACKET_ID_PATTERN.test(value);
}
