// The consented download counter. Nothing is stored or sent until the box is ticked; then
// a random 32-hex visitor id lives in localStorage for 30 days and each verified download
// sends one event. "Forget me" asks the server to delete the visitor's events and drops
// the id here.

import { postJson, ApiError } from './api.js';

const KEY = 'evidence-desk.visitor';
const LIFE_MS = 30 * 86_400_000;

function read() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (stored && /^[0-9a-f]{32}$/.test(stored.id) && Date.now() - stored.created < LIFE_MS) return stored.id;
    localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable or corrupt: behave as without consent.
  }
  return null;
}

function create() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  localStorage.setItem(KEY, JSON.stringify({ id, created: Date.now() }));
  return id;
}

export function setupConsent() {
  const box = document.getElementById('consent');
  const forget = document.getElementById('forget');
  const status = document.getElementById('consent-status');
  const operator = new URLSearchParams(location.search).has('operator');
  box.checked = read() !== null;
  forget.disabled = !box.checked;
  box.addEventListener('change', () => {
    if (box.checked) {
      create();
      // Operator pages (?operator=1) never send download events (funding-upstream §7).
      status.textContent = operator
        ? 'Consent saved in this browser, but this is an operator page (?operator=1): downloads from it are never counted. Open the page without ?operator=1 to have them counted.'
        : 'Thank you: verified downloads from this browser are now counted.';
    } else {
      localStorage.removeItem(KEY);
      status.textContent = 'Counting stopped; the id was removed from this browser. Use "Forget me" first to delete what was counted.';
    }
    forget.disabled = !box.checked;
  });
  forget.addEventListener('click', async () => {
    const visitor = read();
    if (!visitor) return;
    try {
      await postJson('/forget', { visitor, consent: true });
      localStorage.removeItem(KEY);
      box.checked = false;
      forget.disabled = true;
      status.textContent = 'Forgotten: the server deleted the events of this browser and the id is gone.';
    } catch (error) {
      status.textContent = `Could not forget: ${error instanceof ApiError ? error.code : 'client_error'}: ${error.message}`;
    }
  });
  return {
    /** Called after a verified download. */
    async downloaded(packetId) {
      const visitor = read();
      if (!visitor || operator) return;
      try {
        const answer = await postJson('/events', { visitor, consent: true, packet_id: packetId, kind: 'packet_download', traffic_class: 'browser' });
        status.textContent = answer.recorded ? 'Download counted.' : 'Download already counted today.';
      } catch (error) {
        status.textContent = `Download not counted: ${error instanceof ApiError ? error.code : 'client_error'}: ${error.message}`;
      }
    },
  };
}
