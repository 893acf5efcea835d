import { describe, expect, it } from 'vitest';
import { releaseFor } from './wildRugs.ts';

const BUNDLED = '0.8.37';

describe('the solc release a source from the wild compiles with', () => {
  it('takes the newest release every pragma allows', () => {
    expect(releaseFor('pragma solidity ^0.6.0;\ncontract A {}', BUNDLED)).toBe('0.6.12');
    expect(releaseFor('pragma solidity >=0.6.2 <0.8.0;\npragma solidity ^0.6.0;', BUNDLED)).toBe('0.6.12');
    expect(releaseFor('pragma solidity >=0.6.0 <0.9.0;', BUNDLED)).toBe(BUNDLED);
    expect(releaseFor('pragma solidity ^0.8.4;', BUNDLED)).toBe(BUNDLED);
  });

  it('takes the newest release of a pinned patch release it does not fetch', () => {
    expect(releaseFor('pragma solidity 0.8.19;', BUNDLED)).toBe(BUNDLED);
    expect(releaseFor('pragma solidity 0.6.9;', BUNDLED)).toBe('0.6.12');
    expect(releaseFor('pragma solidity 0.5.16;', BUNDLED)).toBe('0.5.17');
  });

  it('has none for a pragma outside every release', () => {
    expect(releaseFor('pragma solidity ^0.3.0;', BUNDLED)).toBeUndefined();
  });
});
