// The files the web page is made of. Every byte the page needs comes from this service:
// our own HTML, script and style under src/web/assets, and uPlot served from its npm
// package (pinned in package.json). Files are read once and kept with their ETag, so a
// browser revalidates cheaply and never loads anything from elsewhere.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../core/hash.js';

export interface WebAsset {
  name: string;
  contentType: string;
  body: Buffer;
  etag: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// From src/web the files sit beside this module; a compiled build (dist/web) reads them
// from the package's src/web/assets, which the package ships.
const ASSET_DIR = [path.join(here, 'assets'), path.join(here, '..', '..', 'src', 'web', 'assets')].find((dir) => existsSync(path.join(dir, 'index.html'))) ?? path.join(here, 'assets');

function own(name: string): string {
  return path.join(ASSET_DIR, name);
}

function fromPackage(specifier: string): string {
  return require.resolve(specifier);
}

const SOURCES: ReadonlyArray<{ name: string; file: () => string; contentType: string }> = [
  { name: 'app.js', file: () => own('app.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'charts.js', file: () => own('charts.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'verify.js', file: () => own('verify.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'api.js', file: () => own('api.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'funding.js', file: () => own('funding.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'analysis.js', file: () => own('analysis.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'panel.js', file: () => own('panel.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'data.js', file: () => own('data.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'consent.js', file: () => own('consent.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'page.css', file: () => own('page.css'), contentType: 'text/css; charset=utf-8' },
  { name: 'example-panel.csv', file: () => own('example-panel.csv'), contentType: 'text/csv; charset=utf-8' },
  { name: 'uPlot.iife.min.js', file: () => fromPackage('uplot/dist/uPlot.iife.min.js'), contentType: 'text/javascript; charset=utf-8' },
  { name: 'uPlot.min.css', file: () => fromPackage('uplot/dist/uPlot.min.css'), contentType: 'text/css; charset=utf-8' },
];

let loaded: Map<string, WebAsset> | undefined;

/** Every asset by name (read on first use). */
export function webAssets(): ReadonlyMap<string, WebAsset> {
  if (!loaded) {
    loaded = new Map();
    for (const source of SOURCES) {
      const body = readFileSync(source.file());
      loaded.set(source.name, { name: source.name, contentType: source.contentType, body, etag: `"${sha256Hex(body)}"` });
    }
  }
  return loaded;
}

/** The page's HTML template (the mode banner is filled in per instance). */
export function pageTemplate(): string {
  return readFileSync(own('index.html'), 'utf8');
}
