import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the run; every integration test file makes its own table.
    globalSetup: ['test/helpers/global-setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'WARN' },
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
