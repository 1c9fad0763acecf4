// The page in a real browser (chromium), against a real listening service in sample mode
// with three captured packets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { chromiumPath, launch, NO_BROWSER_REASON, screenshot, watch } from './browser.js';

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
    await expect.poll(() => page.locator('#observations tbody tr').count()).toBe(9);
    await page.locator('#downloads .ok').nth(2).waitFor();
    expect(await page.locator('#downloads .ok').count()).toBe(3);
    expect(await page.locator('#downloads a[aria-disabled="true"]').count()).toBe(0);
    await expect.poll(() => page.locator('#history-chart canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#changes-since option').count()).toBe(3);
    await page.selectOption('#changes-since', packets[0]);
    await page.click('#changes-run');
    await page.locator('#changes tbody tr').first().waitFor();
    expect(await page.locator('#mode-banner').textContent()).toContain('Sample mode');
    await screenshot(page, 'funding');
    expect(problems.list).toEqual([]);
    await page.context().close();
  });
});
