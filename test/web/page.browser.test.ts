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

  it('is usable from the keyboard: the tabs are a tablist moved with the arrow keys, and every control has a label', async () => {
    const { page } = await open('');
    // tablist > tab, with nothing (no list items) between them.
    expect(await page.$$eval('[role="tablist"]', (lists) => lists.map((l) => Array.from(l.children).map((c) => c.getAttribute('role'))))).toEqual([['tab', 'tab', 'tab']]);
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // the selected tab (only it is in the Tab order)
    const active = () => page.evaluate(() => document.activeElement?.id);
    expect(await active()).toBe('tab-funding');
    await page.keyboard.press('ArrowRight');
    expect(await active()).toBe('tab-data');
    await expect.poll(() => page.isVisible('#view-data'), POLL).toBe(true);
    expect(await page.getAttribute('#tab-data', 'aria-selected')).toBe('true');
    expect(await page.getAttribute('#tab-funding', 'aria-selected')).toBe('false');
    await page.keyboard.press('ArrowRight');
    expect(await active()).toBe('tab-analysis');
    await expect.poll(() => page.isVisible('#view-analysis'), POLL).toBe(true);
    await page.keyboard.press('ArrowRight'); // wraps around
    expect(await active()).toBe('tab-funding');
    await page.keyboard.press('ArrowLeft');
    expect(await active()).toBe('tab-analysis');
    await page.keyboard.press('Home');
    expect(await active()).toBe('tab-funding');
    await page.keyboard.press('End');
    expect(await active()).toBe('tab-analysis');
    expect(await page.isVisible('#view-funding')).toBe(false);
    expect(await page.$$eval('[role="tab"]', (tabs) => tabs.map((t) => (t as HTMLElement).tabIndex))).toEqual([-1, -1, 0]);
    // Tab from the selected tab leaves the tablist.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');
    const unlabelled = await page.$$eval('input, select, textarea', (controls) =>
      controls.filter((c) => !(c as HTMLInputElement).labels?.length && !c.getAttribute('aria-label')).map((c) => c.id),
    );
    expect(unlabelled).toEqual([]);
    await page.context().close();
  });

  // --- Stubbed answers: page.route() stands in for the service where a failure is needed. ---

  const STALE = { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '300' }, body: JSON.stringify({ detail: 'the newest capture is too old', code: 'evidence_stale', sample: true }) };
  /** Problems other than the failures a test stubs on purpose. */
  const unexpected = (list: string[]) => list.filter((p) => !/HTTP 503|HTTP 404|HTTP 422|Failed to load resource|\/v1\/funding\/latest|example-panel|\/api\/v1\/query/.test(p));

  async function openWithClock(hash: string, options: { timezoneId?: string } = {}): Promise<{ page: Page; problems: { list: string[] } }> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
    const page = await context.newPage();
    const problems = watch(page);
    await page.clock.install();
    await page.goto(`${base}/${hash}`);
    return { page, problems };
  }

  /** What the funding view shows of the packet: rows, clocks, usable downloads, error and status. */
  function fundingState(page: Page) {
    return page.evaluate(() => ({
      rows: document.querySelectorAll('#observations tbody tr[data-metric]').length,
      clocks: document.querySelectorAll('#packet-clocks dd').length,
      usable: Array.from(document.querySelectorAll('#downloads a')).filter((a) => a.hasAttribute('href') && a.getAttribute('aria-disabled') !== 'true').length,
      verifiedNotes: document.querySelectorAll('#downloads .ok').length,
      error: (document.getElementById('funding-error') as HTMLElement).hidden ? null : document.getElementById('funding-error')!.textContent,
      status: document.getElementById('funding-status')!.textContent ?? '',
      state: (document.getElementById('observations') as HTMLElement).dataset.state,
    }));
  }

  it('withdraws the shown packet when latest answers 503, and shows it again without the error on recovery (304)', async () => {
    const { page, problems } = await openWithClock('#funding');
    await expect.poll(async () => (await fundingState(page)).usable, POLL).toBe(3);
    let conditional: string | undefined;
    await page.route('**/v1/funding/latest', (route) => route.fulfill(STALE));
    await page.clock.fastForward('05:05');
    await expect.poll(async () => (await fundingState(page)).state, POLL).toBe('withdrawn');
    const outage = await fundingState(page);
    expect(outage).toMatchObject({ rows: 0, clocks: 0, usable: 0, verifiedNotes: 0 });
    expect(outage.error).toContain('evidence_stale');
    expect(outage.status).toMatch(/not available/);
    expect(await page.locator('#observations tbody').textContent()).toContain('withdrawn');
    expect(await page.locator('#observations caption').textContent()).not.toContain('latest packet');
    expect(await page.locator('#downloads').textContent()).toMatch(/withdrawn/);
    // The service serves the same packet again: the page's conditional request gets a 304.
    await page.unroute('**/v1/funding/latest');
    await page.route('**/v1/funding/latest', async (route) => {
      conditional = route.request().headers()['if-none-match'];
      await route.continue();
    });
    await page.clock.fastForward('05:05');
    await expect.poll(async () => (await fundingState(page)).usable, POLL).toBe(3);
    const recovered = await fundingState(page);
    expect(conditional).toBeTruthy();
    expect(recovered).toMatchObject({ rows: 9, clocks: 6, error: null, state: 'current' });
    expect(recovered.status).toBe(`Packet ${packets[2]}: manifest and artifacts verified in this browser.`);
    expect(unexpected(problems.list)).toEqual([]);
    await page.context().close();
  });

  it('withdraws the shown packet when latest cannot be reached, and shows it again on a 200', async () => {
    const { page, problems } = await openWithClock('#funding');
    await expect.poll(async () => (await fundingState(page)).usable, POLL).toBe(3);
    await page.route('**/v1/funding/latest', (route) => route.abort('connectionrefused'));
    await page.clock.fastForward('05:05');
    await expect.poll(async () => (await fundingState(page)).state, POLL).toBe('withdrawn');
    const outage = await fundingState(page);
    expect(outage).toMatchObject({ rows: 0, clocks: 0, usable: 0 });
    expect(outage.error).toMatch(/^network_error: /);
    // Recovery with a full answer (the tag is dropped so the service answers 200).
    await page.unroute('**/v1/funding/latest');
    await page.route('**/v1/funding/latest', (route) => {
      const headers = { ...route.request().headers() };
      delete headers['if-none-match'];
      return route.continue({ headers });
    });
    await page.clock.fastForward('05:05');
    await expect.poll(async () => (await fundingState(page)).usable, POLL).toBe(3);
    expect(await fundingState(page)).toMatchObject({ rows: 9, clocks: 6, error: null, state: 'current', status: `Packet ${packets[2]}: manifest and artifacts verified in this browser.` });
    expect(unexpected(problems.list)).toEqual([]);
    await page.context().close();
  });

  it('reads history and changes from the archive while latest is unavailable', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.route('**/v1/funding/latest', (route) => route.fulfill(STALE));
    await page.goto(`${base}/#funding`);
    await expect.poll(() => page.locator('#changes-since option').count(), POLL).toBe(3);
    await expect.poll(() => page.locator('#history-chart canvas').count(), POLL).toBe(1);
    expect(await page.locator('#history-status').textContent()).toBe('3 archived packet(s) shown.');
    expect(await page.locator('#history-metric option').count()).toBe(9);
    expect(await page.locator('#funding-status').textContent()).toMatch(/not available/);
    expect(await page.locator('#observations tbody tr[data-metric]').count()).toBe(0);
    await context.close();
  });

  it('says there is nothing to compare when the archive has no packet, without asking for changes', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const changes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/funding/changes')) changes.push(request.url());
    });
    await page.route('**/v1/funding/latest', (route) => route.fulfill(STALE));
    await page.route('**/v1/funding/history', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ schema: 'financial-evidence.forward-coverage.v1', packet_count: 0, packets: [], truncated: false, latest_attempt: null }) }),
    );
    await page.goto(`${base}/#funding`);
    await expect.poll(() => page.locator('#history-status').textContent(), POLL).toMatch(/no packets/);
    await page.click('#changes-run');
    await expect.poll(() => page.locator('#changes-status').textContent(), POLL).toMatch(/nothing to compare/i);
    expect(await page.isHidden('#changes-error')).toBe(true);
    expect(changes).toEqual([]);
    await context.close();
  });

  it('says the packet list could not be loaded when history is unreachable, and compares once it loads again', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.route('**/v1/funding/history', (route) => route.abort('connectionrefused'));
    await page.goto(`${base}/#funding`);
    await expect.poll(() => page.locator('#history-status').textContent(), POLL).toMatch(/History unavailable/);
    await page.click('#changes-run');
    await expect.poll(() => page.locator('#changes-status').textContent(), POLL).toMatch(/could not be loaded/);
    expect(await page.locator('#changes-status').textContent()).not.toMatch(/holds no packet/);
    // The service answers again: the next click loads the list first, then the changes.
    await page.unroute('**/v1/funding/history');
    await page.click('#changes-run');
    await expect.poll(() => page.locator('#changes tbody tr').count(), POLL).toBeGreaterThan(0);
    await context.close();
  });

  it('labels each metric as the contract does and shows each observation\'s source', async () => {
    const LABELS: Record<string, string> = {
      'policy.sofr': 'SOFR',
      'policy.effr': 'Effective federal funds rate',
      'policy.iorb': 'Interest on reserve balances',
      'distribution.sofr.p99': 'SOFR 99th percentile',
      'distribution.sofr.volume': 'SOFR volume',
      'liquidity.reserves': 'Reserve balances (weekly average)',
      'liquidity.tga': 'Treasury General Account (opening)',
      'liquidity.on_rrp': 'Overnight reverse repo',
      'liquidity.srf': 'Standing repo facility',
    };
    const { page } = await open('#funding');
    await expect.poll(() => page.locator('#observations tbody tr[data-metric]').count(), POLL).toBe(9);
    const latest = (await h.app.inject({ url: '/v1/funding/latest' })).json<{ observations: Array<{ metric_id: string; source: string }> }>();
    const headers = await page.locator('#observations thead th').allTextContents();
    const sourceColumn = headers.indexOf('Source');
    expect(sourceColumn).toBeGreaterThan(0);
    for (const row of latest.observations) {
      const tr = page.locator(`#observations tbody tr[data-metric="${row.metric_id}"]`);
      expect(await tr.locator('.metric-label').textContent(), row.metric_id).toBe(LABELS[row.metric_id]);
      expect(await tr.locator('td').nth(sourceColumn).textContent(), row.metric_id).toBe(row.source);
    }
    expect(await page.locator('#observations tr[data-metric="liquidity.reserves"] .metric-detail').textContent()).toBe('Reserve balances with Federal Reserve Banks, weekly average');
    expect(await page.locator('#observations tr[data-metric="liquidity.srf"] .metric-detail').textContent()).toBe('morning plus afternoon');
    expect(await page.locator('#history-metric option').first().textContent()).toBe('SOFR (%)');
    await page.context().close();
  });

  it('gives the chart values as a table, with times in UTC', async () => {
    const { page } = await open('#funding');
    await expect.poll(() => page.locator('#history-chart-data tbody tr').count(), POLL).toBe(3);
    const history = (await h.app.inject({ url: '/v1/funding/history' })).json<{ packets: Array<{ archived_at: string }> }>();
    const first = await page.locator('#history-chart-data tbody tr').first().locator('th').textContent();
    expect(first).toBe(new Date(history.packets[0].archived_at).toISOString().replace('.000Z', 'Z'));
    expect(await page.locator('#history-chart-data thead th').first().textContent()).toBe('archived at (UTC)');
    await page.click('#history-chart-data summary');
    expect(await page.isVisible('#history-chart-data table')).toBe(true);
    await page.context().close();
  });

  it('shows availability and context of rows, the diagnostics of an answer, and which source failed and why', async () => {
    const { page } = await open('#data');
    await expect.poll(() => page.locator('#data-dataset option').count(), POLL).toBeGreaterThan(1);
    await page.locator('#data-sources tbody tr').first().waitFor();
    const sourceHeads = await page.locator('#data-sources thead th').allTextContents();
    expect(sourceHeads).toEqual(expect.arrayContaining(['source_url', 'context', 'availability']));
    const sources = (await h.app.inject({ url: '/api/v1/sources' })).json<{ results: Array<Record<string, unknown>> }>();
    const shownUrls = await page.locator('#data-sources tbody tr').evaluateAll((trs, col) => trs.map((tr) => tr.children[col]?.textContent), sourceHeads.indexOf('source_url'));
    expect(shownUrls).toEqual(sources.results.map((r) => r.source_url));
    const shownContext = await page.locator('#data-sources tbody tr').evaluateAll((trs, col) => trs.map((tr) => tr.children[col]?.textContent), sourceHeads.indexOf('context'));
    expect(shownContext).toEqual(sources.results.map((r) => (r.context === null ? '—' : r.context)));

    // The answer as served, with a failed source added to its diagnostics when it has none.
    await expect.poll(() => page.locator('#data-snapshot').textContent(), POLL).toMatch(/^Snapshot /);
    let answer: { dataset: string; results: Array<Record<string, unknown>>; diagnostics: Array<Record<string, unknown>> } | undefined;
    await page.route('**/api/v1/query?**', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as NonNullable<typeof answer>;
      if (body.diagnostics.length === 0) {
        body.diagnostics.push({ ...body.results[0], entity_id: 'Palimpsest', value: null, availability: 'source_unavailable', source_url: 'sample:sources/failed.json', source_field: '', context: 'the source could not be reached (ENOTFOUND)', transport_status: 'unavailable' });
      }
      answer = body;
      await route.fulfill({ response, json: body });
    });
    await page.selectOption('#data-dataset', 'china_economy');
    await page.click('#data-form button[type="submit"]');
    await expect.poll(() => answer?.dataset, POLL).toBe('china_economy');
    if (!answer) throw new Error('the query was not answered');
    expect(answer.diagnostics.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#data-diagnostics tbody tr').count(), POLL).toBe(answer.diagnostics.length);
    await expect.poll(() => page.locator('#data-table tbody tr').count(), POLL).toBe(answer.results.length);
    const heads = await page.locator('#data-table thead th').allTextContents();
    expect(heads).toEqual(expect.arrayContaining(['availability', 'context']));
    const rows = await page.locator('#data-table tbody tr').evaluateAll((trs, cols) => trs.map((tr) => cols.map((c) => tr.children[c]?.textContent)), [heads.indexOf('availability'), heads.indexOf('context')]);
    expect(rows).toEqual(answer.results.map((r) => [r.availability, r.context === null ? '—' : r.context]));
    const diagHeads = await page.locator('#data-diagnostics thead th').allTextContents();
    const diagnostics = await page.locator('#data-diagnostics tbody tr').evaluateAll((trs, cols) => trs.map((tr) => cols.map((c) => tr.children[c]?.textContent)), [diagHeads.indexOf('source_url'), diagHeads.indexOf('context')]);
    expect(diagnostics).toEqual(answer.diagnostics.map((r) => [r.source_url, r.context]));
    await page.context().close();
  });

  it('takes the previous rows off the Data view when a new query fails', async () => {
    const { page, problems } = await open('#data');
    await page.locator('#data-table tbody tr').first().waitFor();
    await page.fill('#data-from', '2026-02-01');
    await page.fill('#data-to', '2026-01-01');
    await page.click('#data-form button[type="submit"]');
    await expect.poll(() => page.locator('#data-error code').textContent(), POLL).toBe('date_range_reversed');
    expect(await page.locator('#data-table tbody tr').count()).toBe(0);
    expect(await page.locator('#data-page').textContent()).toBe('');
    expect(await page.locator('#data-snapshot').textContent()).toBe('');
    expect(await page.getAttribute('#data-csv', 'href')).toBeNull();
    expect(await page.isDisabled('#data-next')).toBe(true);
    // A failure without an answer at all does the same after a good page.
    await page.fill('#data-from', '');
    await page.fill('#data-to', '');
    await page.click('#data-form button[type="submit"]');
    await page.locator('#data-table tbody tr').first().waitFor();
    await page.route('**/api/v1/query?**', (route) => route.abort('connectionrefused'));
    await page.click('#data-form button[type="submit"]');
    await expect.poll(() => page.locator('#data-error code').textContent(), POLL).toBe('network_error');
    expect(await page.locator('#data-table tbody tr').count()).toBe(0);
    expect(unexpected(problems.list)).toEqual([]);
    await page.context().close();
  });

  it('takes the previous run\'s charts and flags off the Analysis view when a new run fails', async () => {
    const { page } = await open('#analysis');
    await page.click('#panel-example');
    await expect.poll(() => page.inputValue('#panel-csv'), POLL).toMatch(/^time,/);
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#market-flags li').count(), POLL).toBe(4);
    const drawn = () => page.locator('#chart-eigen canvas, #chart-concentration canvas, #chart-series canvas').count();
    expect(await drawn()).toBe(3);
    // Not a CSV panel: no request, and nothing of the last run stays.
    await page.fill('#panel-csv', 'time\n2026-01-01,1\n');
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#analysis-error code').textContent(), POLL).toBe('csv_not_readable');
    expect(await page.locator('#market-flags li').count()).toBe(0);
    expect(await drawn()).toBe(0);
    expect(await page.locator('.chart-data:visible').count()).toBe(0);
    // Again after a good run, now with an answer the API refuses.
    await page.click('#panel-example');
    await expect.poll(() => page.inputValue('#panel-csv'), POLL).toMatch(/^time,/);
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#market-flags li').count(), POLL).toBe(4);
    await page.fill('#panel-csv', 'time,a,a\n2026-01-01T00:00:00Z,1,2\n2026-01-02T00:00:00Z,2,3\n');
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#analysis-error code').textContent(), POLL).toBe('duplicate_series_id');
    expect(await page.locator('#market-flags li').count()).toBe(0);
    expect(await drawn()).toBe(0);
    await page.context().close();
  });

  it('reads CSV times without a zone as UTC whatever the browser\'s zone, and labels chart time in UTC', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, timezoneId: 'America/New_York' });
    const page = await context.newPage();
    await page.goto(`${base}/#analysis`);
    expect(await page.evaluate(() => new Date(2026, 0, 1).getTimezoneOffset())).toBe(300);
    const sent: string[][] = [];
    await page.route('**/v1/market/assess', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { series: Array<{ observations: Array<{ observed_at: string }> }> };
      sent.push(body.series[0].observations.map((o) => o.observed_at));
      await route.continue();
    });
    await page.fill('#panel-csv', 'time,a,b\n2026-01-01 00:00,1,2\n2026-01-02T00:00,1.1,2.1\n2026-01-03,1.2,2.3\n2026-01-04T00:00:00-05:00,1.3,2.2\n');
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#analysis-status').textContent(), POLL).toMatch(/^Market: /);
    expect(sent).toEqual([['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T05:00:00Z']]);
    expect(await page.locator('#chart-series-data thead th').first().textContent()).toBe('time (UTC)');
    expect(await page.locator('#chart-series-data tbody th').first().textContent()).toBe('2026-01-01T00:00:00Z');
    expect(await page.locator('#panel-help').textContent()).toMatch(/read as UTC/);
    // A date that does not exist is refused, not rolled over.
    await page.fill('#panel-csv', 'time,a\n2026-02-30,1\n2026-03-01,2\n');
    await page.click('#panel-run');
    await expect.poll(() => page.locator('#analysis-error code').textContent(), POLL).toBe('csv_not_readable');
    await page.context().close();
  });

  it('leaves the CSV box alone and says why when the example panel cannot be loaded', async () => {
    const { page, problems } = await open('#analysis');
    for (const failure of ['abort', 'http'] as const) {
      await page.fill('#panel-csv', 'time,mine\n2026-01-01,1\n');
      await page.route('**/assets/example-panel.csv', (route) =>
        failure === 'abort' ? route.abort('connectionrefused') : route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ detail: 'route not found', code: 'route_not_found' }) }),
      );
      await page.click('#panel-example');
      const code = failure === 'abort' ? 'network_error' : 'route_not_found';
      await expect.poll(() => page.locator('#analysis-error code').textContent(), POLL).toBe(code);
      expect(await page.locator('#analysis-error').textContent()).toMatch(/example panel could not be loaded/);
      expect(await page.inputValue('#panel-csv')).toBe('time,mine\n2026-01-01,1\n');
      await page.unroute('**/assets/example-panel.csv');
    }
    expect(problems.list.filter((p) => p.startsWith('page error'))).toEqual([]);
    await page.context().close();
  });

  it('does not claim on an operator page that downloads are counted', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/?operator=1#funding`);
    await page.locator('#downloads .ok').nth(2).waitFor();
    await page.check('#consent');
    const text = await page.locator('#consent-status').textContent();
    expect(text).not.toMatch(/are now counted/);
    expect(text).toMatch(/never counted/);
    await context.close();
  });

  it('serves /docs with its protections and without CSP violations in the browser', async () => {
    // /docs/ (relative asset paths) has the same headers; page.test.ts checks them.
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page);
    const response = await page.goto(`${base}/docs`);
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    // Swagger UI renders the whole document before the first operation shows (seconds here).
    await page.locator('.opblock').first().waitFor({ timeout: 45_000 });
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(problems.list).toEqual([]);
    await context.close();
  }, 60_000);
});
