// Real-browser support: Debian's chromium driven by playwright-core (no browser download
// at install; .ci/run installs the package). Tests skip, saying why, only when no browser
// binary exists on this machine.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => typeof p === 'string' && p !== '');

export const chromiumPath: string | undefined = CANDIDATES.find((p) => existsSync(p));
export const NO_BROWSER_REASON = `no chromium binary found (looked at ${CANDIDATES.join(', ')}); install Debian's chromium package (.ci/run does) to run the browser tests`;

/** Screenshots and other browser test output. */
export const OUTPUT_DIR = path.resolve('test-output/browser');

export async function launch(): Promise<Browser> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** Collects console errors, page errors and failed or refused requests of one page. */
export interface PageProblems {
  list: string[];
}

export function watch(page: Page): PageProblems {
  const problems: PageProblems = { list: [] };
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.list.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.list.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.list.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.list.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
