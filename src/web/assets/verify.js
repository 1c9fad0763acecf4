// In-browser verification of a packet with WebCrypto: the manifest's bytes must hash to the
// manifest_sha256 that latest states, and each artifact's bytes to the hash that both the
// manifest and latest state. Only verified bytes are offered for download.

import { getBytes } from './api.js';

export async function sha256Hex(bytes) {
  if (!globalThis.crypto || !crypto.subtle) throw new Error('WebCrypto is not available here (the page needs a secure context: https or localhost)');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Returns { manifest: {ok, reason}, artifacts: [{name, ok, reason, bytes}] }. Never throws
 * for a mismatch; a failed fetch is a failed check with its reason.
 */
export async function verifyPacket(latest) {
  const result = { manifest: { ok: false, reason: '' }, artifacts: [] };
  let manifest = null;
  try {
    const bytes = await getBytes(latest.links['manifest.json']);
    const digest = await sha256Hex(bytes);
    if (digest !== latest.manifest_sha256) {
      result.manifest.reason = `manifest.json hashes to ${digest}, the packet states ${latest.manifest_sha256}`;
    } else {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
      if (manifest.packet_id !== latest.packet_id) result.manifest.reason = 'manifest.json names another packet';
      else result.manifest = { ok: true, reason: '', bytes };
    }
  } catch (error) {
    result.manifest.reason = `manifest.json could not be checked: ${error.code ?? ''} ${error.message}`.trim();
  }
  for (const name of Object.keys(latest.artifacts).sort()) {
    const entry = { name, ok: false, reason: '', bytes: null };
    result.artifacts.push(entry);
    if (!result.manifest.ok) {
      entry.reason = 'not checked: the manifest did not verify';
      continue;
    }
    try {
      const expected = latest.artifacts[name];
      if (manifest.artifacts?.[name] !== expected) {
        entry.reason = `the manifest and latest disagree on the hash of ${name}`;
        continue;
      }
      const bytes = await getBytes(latest.links[name]);
      const digest = await sha256Hex(bytes);
      if (digest !== expected) entry.reason = `${name} hashes to ${digest}, the packet states ${expected}`;
      else Object.assign(entry, { ok: true, bytes });
    } catch (error) {
      entry.reason = `${name} could not be checked: ${error.code ?? ''} ${error.message}`.trim();
    }
  }
  return result;
}
