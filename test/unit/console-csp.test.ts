/** The console's CSP with a files bucket: the bucket's origin for the upload and images only. */
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consoleCsp, consoleSecurityHeaders } from '../../lib/security-headers';

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe('consoleCsp', () => {
  it('admits the files origin for connect-src and img-src, and for nothing else', () => {
    const origin = 'https://talent-pipeline-files-prod-123-eu-west-1.s3.eu-west-1.amazonaws.com';
    const withFiles = directives(consoleCsp(origin));
    const without = directives(CONSOLE_CSP);
    expect(Object.keys(withFiles)).toEqual(Object.keys(without));
    for (const [name, sources] of Object.entries(withFiles)) {
      if (name === 'connect-src' || name === 'img-src') expect(sources, name).toEqual([...without[name]!, origin]);
      else expect(sources, name).toEqual(without[name]);
    }
    expect(without['connect-src']).toEqual(["'self'"]);
    expect(without['form-action']).toEqual(["'self'"]);
    expect(consoleSecurityHeaders(origin)['Content-Security-Policy']).toBe(consoleCsp(origin));
  });
});
