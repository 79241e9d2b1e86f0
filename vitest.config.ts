import { defineConfig } from 'vitest/config';

const CONTENTION = 'test/integration/concurrency.test.ts';

export default defineConfig({
  test: {
    // One DynamoDB Local for the run; every integration test file makes its own table.
    globalSetup: ['test/helpers/global-setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'WARN' },
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'api', include: ['test/**/*.test.ts'], exclude: ['test/browser/**', CONTENTION] } },
      // Fifty writers racing on five items, each against the route's 10 s timeout as deployed:
      // beside the other files on two cores the losers' retries run past it. They run alone.
      { extends: true, test: { name: 'contention', include: [CONTENTION], sequence: { groupOrder: 1 } } },
      // The browser suite (Chromium + its own npm start) runs after the rest, not beside it: on a
      // two-core machine the two together starve DynamoDB Local and the timing-sensitive tests.
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
