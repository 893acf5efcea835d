import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { UNISWAP_V2_FACTORY, UNISWAP_V2_INIT_CODE_HASH, UNISWAP_V2_WETH } from '../infra/devnet/uniswap.ts';
import {
  costLine,
  discoveryCost,
  inherits,
  namedRouters,
  onDevnetVenue,
  releaseFor,
  scanned,
  sourceUnits,
} from './wildRugs.ts';

const require = createRequire(import.meta.url);
const solc = require('solc') as { compile(input: string): string };

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

// A multi-file source joined into one file, as the dataset keeps some: the token's own file first,
// importing bases that come after it, and one base file twice.
const JOINED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import "./Base.sol";
import "./Ownable.sol";
contract Token is Ownable, Base("Token") {
    function mint(uint256 amount) external onlyOwner { supply += amount; }
}
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
import "./Ownable.sol";
abstract contract Base is Ownable {
    uint256 public supply;
    string public name;
    constructor(string memory name_) { name = name_; }
}
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
abstract contract Ownable {
    address public owner = msg.sender;
    modifier onlyOwner() { require(msg.sender == owner); _; }
}
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
abstract contract Ownable {
    address public owner = msg.sender;
    modifier onlyOwner() { require(msg.sender == owner); _; }
}
`;

function compileErrors(sources: Record<string, { content: string }>): string[] {
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources,
        settings: { outputSelection: { '*': { '*': ['abi'] } } },
      }),
    ),
  ) as { errors?: { severity: string; message: string }[] };
  return (output.errors ?? []).filter((error) => error.severity === 'error').map((error) => error.message);
}

describe('the source units of a source from the wild', () => {
  it('compiles a joined multi-file source that solc refuses as one file', () => {
    const asOneFile = { 'token.sol': { content: JOINED.replace(/^\s*import\s[^;]*;/gm, '') } };
    expect(compileErrors(asOneFile)).not.toEqual([]);
    const units = sourceUnits(JOINED);
    expect(Object.keys(units)).toHaveLength(3);
    expect(compileErrors(units)).toEqual([]);
  });

  it('keeps a flattened file without imports as one unit, its pragmas and licences neutralised', () => {
    const units = sourceUnits('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract A {}');
    expect(Object.keys(units)).toEqual(['token.sol']);
    expect(units['token.sol']?.content).not.toMatch(/pragma|SPDX/);
  });
});

describe('the token among the contracts of a source', () => {
  it('tells bases from the contracts deriving from them, through their own bases', () => {
    expect(inherits(JOINED, 'Token', 'Base')).toBe(true);
    expect(inherits(JOINED, 'Token', 'Ownable')).toBe(true);
    expect(inherits(JOINED, 'Base', 'Token')).toBe(false);
    expect(inherits('contract A is B {} contract B is A {}', 'A', 'C')).toBe(false);
  });
});

describe('routers named in a source', () => {
  it('finds addresses cast to a router or assigned to a router variable, once each', () => {
    const source = `
      IUniswapV2Router02 r = IUniswapV2Router02(0x1b02da8cb0d097eb8d57a175b88c7d8b47997506);
      address private _router = 0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D;
      IPancakeRouter(address(0x1B02dA8Cb0d097eB8D57A175b88c7D8b47997506));
      address marketing = 0x56f19FeCf5BCdCCE06fE303Da3c8324002745A3a;`;
    expect(namedRouters(source)).toEqual([
      '0x1b02dA8Cb0d097eB8D57A175b88c7D8b47997506',
      '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    ]);
  });
});

describe('a BSC token on the devnet venue', () => {
  it("names the devnet's WETH, factory and pair init code hash in place of PancakeSwap's, and still compiles", () => {
    const source = `contract Venue {
      address constant WBNB = 0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c;
      address constant FACTORY = 0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73;
      bytes32 constant INIT = hex"00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5";
      address constant ROUTER = 0x10ED43C718714eb63d5aA57B78B54704E256024E;
    }`;
    const rewritten = onDevnetVenue(source);
    expect(rewritten).toContain(UNISWAP_V2_WETH);
    expect(rewritten).toContain(UNISWAP_V2_FACTORY);
    expect(rewritten).toContain(`hex"${UNISWAP_V2_INIT_CODE_HASH.slice(2)}"`);
    expect(rewritten).toContain('0x10ED43C718714eb63d5aA57B78B54704E256024E');
    expect(compileErrors({ 'venue.sol': { content: `pragma solidity ^0.8.0;\n${rewritten}` } })).toEqual([]);
  });
});

describe('scanned: what a scan says of the classes', () => {
  const result = {
    tier: 'critical' as const,
    risk_score: 90,
    engines: {
      honeypot: { status: 'ok' as const, duration_ms: 1 },
      contract_safety: { status: 'ok' as const, duration_ms: 1 },
    },
    checks: [],
    flags: [{ id: 'owner_not_renounced' }, { id: 'fresh_deployer' }],
  } as unknown as Parameters<typeof scanned>[0];

  it('is usable when every engine ran', () => {
    expect(scanned(result).actual).toMatchObject({
      tier: 'critical',
      flags: ['fresh_deployer', 'owner_not_renounced'],
    });
  });

  it('is not a clean negative when an engine failed, and says which', () => {
    const failed = {
      ...result,
      tier: 'low',
      engines: {
        ...result.engines,
        contract_safety: {
          status: 'failed',
          duration_ms: 1,
          error: { reason: 'timeout', message: 'the node timed out' },
        },
      },
    } as unknown as Parameters<typeof scanned>[0];
    expect(scanned(failed)).toEqual({
      actual: null,
      detail: 'engines failed: contract_safety (the node timed out)',
    });
  });
});

describe('what discovery cost, as the results say it', () => {
  it('reads a scan’s discovery facts, and nothing from a scan whose engine gave none', () => {
    expect(
      discoveryCost({
        discovery: {
          timings_ms: { explore: 900, comparisons: 80, later_block: 20 },
          calls: 410,
          round_trips: 12,
          candidates: [{ address: '0x01' }, { address: '0x02' }],
        },
      }),
    ).toEqual({ ms: 1_000, calls: 410, round_trips: 12, accounts: 2 });
    expect(discoveryCost(undefined)).toBeUndefined();
    expect(discoveryCost({ discovery: { timings_ms: {} } })).toBeUndefined();
  });

  it('gives the median, the total and the most over the scans', () => {
    const cost = (ms: number, calls: number) => ({ ms, calls, round_trips: 2, accounts: 3 });
    expect(costLine([cost(1_000, 10), cost(3_000, 30), cost(20_000, 200), cost(4_000, 40)])).toBe(
      'Discovery of 4 scans: median 3.5 s, all 28.0 s, most 20.0 s; simulated calls median 35, all 280; round trips 8; accounts explored 12.',
    );
    expect(costLine([])).toBe('No scan recorded its discovery.');
  });
});
