import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Seconds each long file took in one run of `npm test` (two at once on two cores). Vitest orders files by the
 * durations in its cache, and a clean clone (CI) has none: files then run in the order they were found, and a
 * long browser file found last kept one worker busy for a minute after the other had finished. Longest first
 * instead, from this table; the files not in it (each a few seconds at most) follow in Vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'test/stories/stories.test.ts': 72,
  'test/faults/kit-faults.test.tsx': 59,
  'test/e2e/demo.test.ts': 50,
  'test/components/host.browser.test.ts': 47,
  'test/components/visual.browser.test.ts': 42,
  'test/layouts/focus.browser.test.ts': 38,
  'test/layouts/layouts.browser.test.ts': 38,
  'test/live/tabs.test.ts': 36,
  'test/security/untrusted.test.ts': 29,
  'test/consistency/consistency.browser.test.ts': 21,
  'test/components/feed.browser.test.ts': 16,
  'test/a11y/a11y.browser.test.ts': 15,
  'test/push/hostile-stream.test.ts': 15,
  'test/live/devWarning.test.ts': 15,
  'test/push/kit.test.ts': 12,
  'test/components/hostreset.browser.test.ts': 11,
  'test/components/Inbox.test.tsx': 10,
  'test/proxy/fuzz.test.ts': 10,
  'test/faults/service-input.test.ts': 8,
  'test/components/Feed.test.tsx': 8,
  'test/readme/readme.test.ts': 6,
  'test/layouts/layouts.test.tsx': 4,
  'test/components/PreferencesPanel.test.tsx': 4,
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
