import { afterEach, describe, expect, it, vi } from 'vitest';
import { jitFromEnv, jvmFlags } from '../../dev/dynamodb';

describe('DynamoDB Local JIT choice (dev/dynamodb.ts)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('takes the caller default when DYNAMODB_LOCAL_JIT is unset or empty', () => {
    vi.stubEnv('DYNAMODB_LOCAL_JIT', '');
    expect(jitFromEnv('full')).toBe('full');
    expect(jitFromEnv('quick')).toBe('quick');
  });

  it('lets DYNAMODB_LOCAL_JIT override it', () => {
    vi.stubEnv('DYNAMODB_LOCAL_JIT', 'quick');
    expect(jitFromEnv('full')).toBe('quick');
    vi.stubEnv('DYNAMODB_LOCAL_JIT', 'full');
    expect(jitFromEnv('quick')).toBe('full');
  });

  it('runs the quick JVM with the first JIT tier only and the serial collector; the full one as Java chooses', () => {
    expect(jvmFlags('quick')).toEqual(['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC']);
    expect(jvmFlags('full')).toEqual([]);
  });

  it('refuses any other value, naming it, instead of guessing', () => {
    vi.stubEnv('DYNAMODB_LOCAL_JIT', 'c2');
    expect(() => jitFromEnv('full')).toThrow('DYNAMODB_LOCAL_JIT must be quick or full, got "c2"');
  });
});
