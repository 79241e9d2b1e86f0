import { afterAll, beforeAll, vi } from 'vitest';
import { logger } from '../../lib/logger';

/**
 * The handlers' log level for one test file, where files share a module graph (vitest.config.ts):
 * raised in its beforeAll, the worker's again after its afterAll. Powertools' Lambda middleware
 * puts back the level the logger was made with (POWERTOOLS_LOG_LEVEL as lib/logger.ts loaded)
 * before each warm invocation, to draw its debug sampling again; no sampling is configured here,
 * so the file holds that refresh off while it runs.
 */
export function useLogLevel(level: 'DEBUG'): void {
  let before: ReturnType<typeof logger.getLevelName> | undefined;
  let refresh: { mockRestore(): void } | undefined;
  beforeAll(() => {
    before = logger.getLevelName();
    refresh = vi.spyOn(logger, 'refreshSampleRateCalculation').mockImplementation(() => {});
    logger.setLogLevel(level);
  });
  afterAll(() => {
    refresh?.mockRestore();
    if (before) logger.setLogLevel(before);
  });
}
