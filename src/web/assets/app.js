// Entry point: tab navigation by URL fragment (#funding, #data, #analysis), each view set
// up once when first shown. The tabs follow the ARIA tabs pattern: only the selected tab
// is in the Tab order, and the arrow keys (Home and End too) move to and select another.

import { setupFunding } from './funding.js';
import { setupAnalysis } from './analysis.js';
import { setupData } from './data.js';

const VIEWS = { funding: setupFunding, data: setupData, analysis: setupAnalysis };
const NAMES = Object.keys(VIEWS);
const started = new Set();

function show(name) {
  if (!(name in VIEWS)) name = 'funding';
  for (const view of NAMES) {
    const panel = document.getElementById(`view-${view}`);
    const tab = document.getElementById(`tab-${view}`);
    panel.hidden = view !== name;
    tab.setAttribute('aria-selected', String(view === name));
    tab.tabIndex = view === name ? 0 : -1;
  }
  if (!started.has(name)) {
    started.add(name);
    VIEWS[name]();
  }
}

function fromHash() {
  show(location.hash.replace(/^#/, ''));
}

function onTabKey(event) {
  const tab = event.target.closest('[role="tab"]');
  if (!tab) return;
  const at = NAMES.indexOf(tab.id.replace(/^tab-/, ''));
  let next;
  if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (at + 1) % NAMES.length;
  else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (at - 1 + NAMES.length) % NAMES.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = NAMES.length - 1;
  else if (event.key === ' ') next = at;
  else return;
  event.preventDefault();
  const name = NAMES[next];
  if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`);
  show(name);
  document.getElementById(`tab-${name}`).focus();
}

window.addEventListener('hashchange', fromHash);
document.querySelector('[role="tablist"]').addEventListener('keydown', onTabKey);
// uPlot is a deferred classic script; modules run after it, so it is defined here.
fromHash();
