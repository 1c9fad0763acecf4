// Entry point: tab navigation by URL fragment (#funding, #data, #analysis), each view set
// up once when first shown.

import { setupFunding } from './funding.js';
import { setupAnalysis } from './analysis.js';
import { setupData } from './data.js';

const VIEWS = { funding: setupFunding, data: setupData, analysis: setupAnalysis };
const started = new Set();

function show(name) {
  if (!(name in VIEWS)) name = 'funding';
  for (const view of Object.keys(VIEWS)) {
    const panel = document.getElementById(`view-${view}`);
    const tab = document.getElementById(`tab-${view}`);
    panel.hidden = view !== name;
    tab.setAttribute('aria-selected', String(view === name));
  }
  if (!started.has(name)) {
    started.add(name);
    VIEWS[name]();
  }
}

function fromHash() {
  show(location.hash.replace(/^#/, ''));
}

window.addEventListener('hashchange', fromHash);
// uPlot is a deferred classic script; modules run after it, so it is defined here.
fromHash();
