/** The serving rule under malware scanning (lib/domain/file-scan-rules.ts). */
import { describe, expect, it } from 'vitest';
import { isThreat, SCAN_RESULTS, scanVerdict } from '../../lib/domain/file-scan-rules';

describe('scanVerdict', () => {
  it('without scanning every ready file is served, whatever was recorded', () => {
    for (const s of [undefined, null, ...SCAN_RESULTS]) expect(scanVerdict(false, s)).toEqual({ serve: true });
  });

  it('with scanning, only NO_THREATS_FOUND is served; a threat is file_infected; no result or one that judged nothing is scan_pending', () => {
    expect(scanVerdict(true, 'NO_THREATS_FOUND')).toEqual({ serve: true });
    expect(scanVerdict(true, 'THREATS_FOUND')).toMatchObject({ serve: false, code: 'file_infected' });
    for (const s of [undefined, null, '', 'UNSUPPORTED', 'ACCESS_DENIED', 'FAILED', 'no_threats_found', 'SOMETHING_NEW'])
      expect(scanVerdict(true, s), String(s)).toMatchObject({ serve: false, code: 'scan_pending' });
  });

  it('only a threat refuses the file', () => {
    expect(SCAN_RESULTS.filter(isThreat)).toEqual(['THREATS_FOUND']);
  });
});
