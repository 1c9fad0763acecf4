/// <reference lib="dom" />
// The page in a real browser (chromium), against a real listening service in sample mode
// with three captured packets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { chromiumPath, launch, NO_BROWSER_REASON, screenshot, watch } from './browser.js';

// The page answers through real requests (analysis on the worker pool): on a busy machine that
// takes seconds, not the 1 s expect.poll allows by default.
const POLL = { timeout: 30_000 } as const;

if (!chromiumPath) console.warn(`browser tests skipped: ${NO_BROWSER_REASON}`);

describe.skipIf(!chromiumPath)('the web page in chromium', () => {
  let h: FundingHarness;
  let browser: Browser;
  let base: string;
  const packets: string[] = [];

  beforeAll(async () => {
    h = await openFundingHarness({ mode: 'sample' });
    for (let i = 0; i < 3; i++) {
      if (i > 0) h.clock.advance(900);
      packets.push((await h.captured()).packet_id!);
    }
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function open(hash: string, width = 1200): Promise<{ page: Page; problems: { list: string[] } }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${base}/${hash}`);
    return { page, problems };
  }

  it('loads the funding view with no console errors or failed requests, shows nine observations and verifies every download', async () => {
    const { page, problems } = await open('#funding');
    await expect.poll(() => page.locator('#observations tbody tr').count(), POLL).toBe(9);
    await page.locator('#downloads .ok').nth(2).waitFor();
    expect(await page.locator('#downloads .ok').count()).toBe(3);
    expect(await page.locator('#downloads a[aria-disabled="true"]').count()).toBe(0);
    await expect.poll(() => page.locator('#history-chart canvas').count(), POLL).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#changes-since option').count(), POLL).toBe(3);
    await page.selectOption('#changes-since', packets[0]);
    await page.click('#changes-run');
    await page.locator('#changes tbody tr').first().waitFor();
    expect(await page.locator('#mode-banner').textContent()).toContain('Sample mode');
    await screenshot(page, 'funding');
    expect(problems.list).toEqual([]);
    await page.context().close();
  });

  it('disables a tampered artifact\'s download with a visible message and keeps the others', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.route('**/review.json', async (route) => {
      const response = await route.fetch();
      const body = Buffer.from(await response.body());
      body[body.length - 3] ^= 0x01;
      await route.fulfill({ response, body });
    });
    await page.goto(`${base}/#funding`);
    const failed = page.locator('#downloads .failed');
    await failed.waitFor();
    expect(await failed.count()).toBe(1);
    expect(await failed.textContent()).toMatch(/verification failed, download disabled: review\.json hashes to [0-9a-f]{64}/);
    const tampered = page.locator('#downloads a[data-file="review.json"]');
    expect(await tampered.getAttribute('aria-disabled')).toBe('true');
    expect(await tampered.getAttribute('href')).toBeNull();
    expect(await page.locator('#downloads .ok').count()).toBe(2);
    expect(await page.locator('#funding-status').textContent()).toContain('1 check(s) failed');
    await screenshot(page, 'funding-tampered');
    await context.close();
  });

  it('records exactly one event for verified downloads after consent, and "forget me" removes it', async () => {
    const { page, problems } = await open('#funding');
    const events = () => h.storage.db.selectFrom('browser_events').selectAll().execute();
    await page.locator('#downloads .ok').nth(2).waitFor();
    // Without consent nothing is sent and nothing is stored in the browser.
    const first = page.waitForEvent('download');
    await page.click('#downloads a[data-file="observations.csv"]');
    const download = await first;
    expect(download.suggestedFilename()).toBe(`${packets[2]}-observations.csv`);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await events()).toHaveLength(0);

    await page.check('#consent');
    const visitor = await page.evaluate(() => (JSON.parse(localStorage.getItem('evidence-desk.visitor') ?? 'null') as { id: string } | null)?.id);
    expect(visitor).toMatch(/^[0-9a-f]{32}$/);
    const counted = page.waitForEvent('download');
    await page.click('#downloads a[data-file="observations.csv"]');
    await counted;
    await expect.poll(() => page.locator('#consent-status').textContent(), POLL).toBe('Download counted.');
    const again = page.waitForEvent('download');
    await page.click('#downloads a[data-file="review.json"]');
    await again;
    await expect.poll(() => page.locator('#consent-status').textContent(), POLL).toBe('Download already counted today.');
    const stored = await events();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ packet: packets[2], kind: 'packet_download' });
    expect(JSON.stringify(stored)).not.toContain(visitor!);

    await page.click('#forget');
    await expect.poll(() => page.locator('#consent-status').textContent(), POLL).toContain('Forgotten');
    expect(await events()).toHaveLength(0);
    expect(await page.isChecked('#consent')).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('evidence-desk.visitor'))).toBeNull();
    expect(problems.list).toEqual([]);
    await page.context().close();
  });

  /** Pixels of a canvas that have the given colour (within a small tolerance). */
  async function pixelsOf(page: Page, selector: string, rgb: [number, number, number]): Promise<number> {
    return page.$eval(
      selector,
      (canvas, colour) => {
        const c = canvas as HTMLCanvasElement;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - colour[0]) < 12 && Math.abs(data[i + 1] - colour[1]) < 12 && Math.abs(data[i + 2] - colour[2]) < 12 && data[i + 3] > 200) n++;
        }
        return n;
      },
      rgb,
    );
  }

  it('runs the example panel and draws the spectral, concentration, series and Dyson charts', async () => {
    const { page, problems } = await open('#analysis');
    await page.click('#panel-example');
    await expect.poll(() => page.inputValue('#panel-csv'), POLL).toMatch(/^time,alpha,bravo,charlie,delta/);
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#analysis-status').textContent(), POLL).toMatch(/^Market: \w+\. Spectral: \w+, \d+ window/);
    for (const chart of ['#chart-eigen', '#chart-concentration', '#chart-series']) {
      // The first series colour (#1f77b4) is drawn: the canvas holds data, not only axes.
      expect(await pixelsOf(page, `${chart} canvas`, [0x1f, 0x77, 0xb4]), chart).toBeGreaterThan(20);
    }
    expect(await page.locator('#market-flags li').count()).toBe(4);
    await page.fill('#dyson-dimension', '5');
    await page.fill('#dyson-steps', '60');
    await page.fill('#dyson-seed', '7');
    await page.click('#dyson-form button[type="submit"]');
    await page.locator('#chart-dyson canvas').waitFor();
    expect(await pixelsOf(page, '#chart-dyson canvas', [0x1f, 0x77, 0xb4])).toBeGreaterThan(20);
    expect(await pixelsOf(page, '#chart-dyson canvas', [0xd6, 0x27, 0x28])).toBeGreaterThan(20);
    await screenshot(page, 'analysis');
    // Chromium's hint about the test's own pixel reads (getImageData) is not the page's doing.
    expect(problems.list.filter((p) => !p.includes('willReadFrequently'))).toEqual([]);
    await page.context().close();
  });

  it('shows an API error with its registry code', async () => {
    const { page, problems } = await open('#analysis');
    // Valid CSV, but a series id longer than the API allows (128 characters).
    await page.fill('#panel-csv', `time,${'x'.repeat(200)}\n2026-01-01T00:00:00Z,1\n2026-01-01T01:00:00Z,2\n`);
    await page.click('#panel-run');
    const box = page.locator('#analysis-error');
    await box.waitFor();
    expect(await box.locator('code').textContent()).toBe('invalid_input');
    expect(await box.textContent()).toMatch(/^invalid_input: .+/);
    // The 422 itself is the expected answer here.
    expect(problems.list.filter((p) => !/422/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('pages a dataset from one snapshot without repeating rows, with source status and a CSV link of the same snapshot', async () => {
    const { page, problems } = await open('#data');
    const queries: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/query')) queries.push(request.url());
    });
    await expect.poll(() => page.locator('#data-dataset option').count(), POLL).toBeGreaterThan(1);
    await page.locator('#data-sources tbody tr').first().waitFor();
    expect(await page.locator('#data-sources thead th').allTextContents()).toContain('rights_status');
    // The dataset with the most rows, so there is more than one page.
    const counts = await h.app.inject({ url: '/api/v1/datasets' });
    const datasets = counts.json<Array<{ id: string }>>();
    let best = { id: '', total: 0 };
    for (const { id } of datasets) {
      const total = (await h.app.inject({ url: `/api/v1/query?dataset=${id}&limit=1` })).json<{ total_rows: number }>().total_rows;
      if (total > best.total) best = { id, total };
    }
    expect(best.total).toBeGreaterThan(10);
    await page.selectOption('#data-dataset', best.id);
    await page.click('#data-form button[type="submit"]');
    await expect.poll(() => page.locator('#data-page').textContent(), POLL).toMatch(new RegExp(`^Rows 1–\\d+ of ${best.total}$`));
    await screenshot(page, 'data');
    const seen: string[] = [];
    for (;;) {
      const rows = await page.$$eval('#data-table tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
      seen.push(...rows);
      if (await page.isDisabled('#data-next')) break;
      const before = await page.locator('#data-page').textContent();
      await page.click('#data-next');
      await expect.poll(() => page.locator('#data-page').textContent(), POLL).not.toBe(before);
    }
    expect(seen).toHaveLength(best.total);
    expect(new Set(seen).size).toBe(best.total);
    const pinned = queries.filter((q) => q.includes(`dataset=${best.id}`));
    const snapshot = new URL(pinned[1]).searchParams.get('snapshot');
    expect(snapshot).toBeTruthy();
    for (const q of pinned.slice(1)) expect(new URL(q).searchParams.get('snapshot')).toBe(snapshot);
    const csv = new URL(String(await page.getAttribute('#data-csv', 'href')), base);
    expect(csv.searchParams.get('format')).toBe('csv');
    expect(csv.searchParams.get('snapshot')).toBe(snapshot);
    const body = await (await fetch(csv)).text();
    expect(body.split('\n')[0]).toContain('entity_id');
    expect(problems.list).toEqual([]);
    await page.context().close();
  });

  it('has no horizontal scroll at 360 px wide on any view', async () => {
    for (const view of ['funding', 'analysis', 'data']) {
      const { page } = await open(`#${view}`, 360);
      if (view === 'funding') await page.locator('#downloads .ok').nth(2).waitFor();
      if (view === 'data') await page.locator('#data-table tbody tr').first().waitFor();
      if (view === 'analysis') {
        await page.click('#panel-example');
        await expect.poll(() => page.inputValue('#panel-csv'), POLL).not.toBe('');
        await page.click('#panel-run');
        await page.locator('#chart-series canvas').waitFor();
      }
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll, view).toBeLessThanOrEqual(widths.client);
      await screenshot(page, `${view}-360px`);
      await page.context().close();
    }
  });

  it('is usable from the keyboard: tabs reach the views and every control has a label', async () => {
    const { page } = await open('');
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-analysis');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.isVisible('#view-analysis'), POLL).toBe(true);
    const unlabelled = await page.$$eval('input, select, textarea', (controls) =>
      controls.filter((c) => !(c as HTMLInputElement).labels?.length && !c.getAttribute('aria-label')).map((c) => c.id),
    );
    expect(unlabelled).toEqual([]);
    await page.context().close();
  });
});
