// Prints one plain closing line, `Tests: N passed, N failed[, N skipped]`, after vitest's
// own summary, so CI logs state the outcome in a form any reader can parse.
import type { Reporter } from 'vitest/reporters';

interface TaskLike {
  type: string;
  mode?: string;
  result?: { state?: string };
  tasks?: TaskLike[];
}

export default class SummaryReporter implements Reporter {
  onFinished(files: TaskLike[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const visit = (task: TaskLike) => {
      if (task.tasks) task.tasks.forEach(visit);
      if (task.type !== 'test') return;
      const state = task.result?.state;
      if (state === 'pass') passed++;
      else if (state === 'fail') failed++;
      else skipped++;
    };
    files.forEach(visit);
    const failedFiles = files.filter((f) => f.result?.state === 'fail' && !(f.tasks ?? []).length).length;
    process.stdout.write(`\nTests: ${passed} passed, ${failed + failedFiles} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
