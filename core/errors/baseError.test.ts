import { describe, expect, it } from 'vitest';
import { BaseError, walkCauses } from './baseError.ts';

class Inner extends Error {}

describe('walkCauses', () => {
  it('finds a match anywhere in the chain, the error itself first', () => {
    const inner = new Inner('socket hang up');
    const outer = new BaseError('read failed', { cause: new Error('wrapped', { cause: inner }) });
    expect(outer.walk((error) => error instanceof Inner)).toBe(inner);
    expect(walkCauses(outer, (error) => error.message === 'read failed')).toBe(outer);
    expect(outer.walk((error) => error.message === 'absent')).toBeUndefined();
  });

  it('stops on a cause that is not an error, and on a cycle', () => {
    expect(walkCauses(new Error('x', { cause: 'a string' }), (error) => error.message === 'a string')).toBe(
      undefined,
    );
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    let visited = 0;
    expect(walkCauses(b, () => (visited++, false))).toBeUndefined();
    expect(visited).toBe(10);
    expect(walkCauses('not an error', () => true)).toBeUndefined();
  });
});
