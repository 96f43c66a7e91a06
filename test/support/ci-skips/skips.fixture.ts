import { expect, it } from 'vitest';

// Run by test/unit/skips-fail-in-ci.test.ts through ./vitest.config.ts, never by the suites.
it('runs', () => {
  expect(1).toBe(1);
});

it(process.env.SKIP_KIND === 'bug' ? 'a known bug' : 'needs a tool', (context) => {
  if (process.env.SKIP_KIND === 'bug') context.task.meta.bug = 'a known bug of the action';
  if (process.env.SKIP_KIND) context.skip('the tool is not installed');
  expect(1).toBe(1);
});
