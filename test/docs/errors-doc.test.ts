import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/core/errors.js';
import { ERRORS_DOC, renderErrorsDoc } from '../../scripts/errors-doc.js';
import { makeTestApp } from '../helpers/app.js';

describe('docs/errors.md', () => {
  it('is what the registry generates (run `npm run docs:errors` after changing a code)', async () => {
    expect(fs.readFileSync(ERRORS_DOC, 'utf8')).toBe(await renderErrorsDoc());
  });

  it('lists every code the running service can answer with, and each code once', async () => {
    // Building the whole app loads every module a request can reach.
    const t = await makeTestApp();
    await t.close();
    const doc = fs.readFileSync(ERRORS_DOC, 'utf8');
    for (const { code, status } of errorCatalogue()) {
      const rows = doc.split('\n').filter((line) => line.startsWith(`| \`${code}\` |`));
      expect(rows, code).toHaveLength(1);
      expect(rows[0]).toContain(`| ${status} |`);
    }
  });
});
