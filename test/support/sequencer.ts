import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Seconds each long file took in one run of `npm test` (two at once on two cores; a clean-clone CI run of
 * 2026-11-28). Vitest orders files by the durations in its cache, and a clean clone (CI) has none: files then run
 * in the order they were found, and a long browser file found last kept one worker busy for a minute after the
 * other had finished. Longest first instead, from this table; the files not in it (each a few seconds at most)
 * follow in Vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'test/e2e/demo.test.ts': 89,
  'test/components/host.browser.test.ts': 59,
  'test/faults/kit-faults.test.tsx': 57,
  'test/components/visual.browser.test.ts': 53,
  'test/stories/stories.test.ts': 45,
  'test/layouts/focus.browser.test.ts': 43,
  'test/live/tabs.test.ts': 38,
  'test/layouts/layouts.browser.test.ts': 37,
  'test/consistency/consistency.browser.test.ts': 30,
  'test/security/untrusted.test.ts': 29,
  'test/a11y/a11y.browser.test.ts': 20,
  'test/components/feed.browser.test.ts': 19,
  'test/live/devWarning.test.ts': 18,
  'test/push/kit.test.ts': 16,
  'test/push/hostile-stream.test.ts': 15,
  'test/components/Inbox.test.tsx': 13,
  'test/components/hostreset.browser.test.ts': 10,
  'test/components/Feed.test.tsx': 10,
  'test/faults/service-input.test.ts': 9,
  'test/proxy/fuzz.test.ts': 8,
  'test/server/cli-bodies.test.ts': 7,
  'test/components/PreferencesPanel.test.tsx': 5,
  'test/server/cli.test.ts': 4,
  'test/push/node.test.ts': 4,
  'test/layouts/layouts.test.tsx': 4,
  'test/components/NotificationItem.test.tsx': 4,
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files)
    const seconds = (file: TestSpecification) => SECONDS[file.moduleId.slice(file.project.config.root.length + 1)] ?? 0
    // A stable sort: equal weights keep Vitest's order.
    return base
      .map((file, i) => ({ file, i }))
      .sort((a, b) => seconds(b.file) - seconds(a.file) || a.i - b.i)
      .map((x) => x.file)
  }
}
