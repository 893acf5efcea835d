import { createRequire } from 'node:module';
import { encodePacked, getContractAddress, type Hex, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { AAVE_PACKAGE, aaveAddressBookRows } from './aaveAddressBook.ts';
import { labelsOnChain } from './labelIndex.ts';
import { LABEL_SETS, type SourceTree } from './labelSets.ts';
import { SAFE_PACKAGE, safeDeploymentRows } from './safeDeployments.ts';
import { readSnapshot, SNAPSHOT_IDS } from './snapshot.ts';
import { loadLabelRows, sourceVersion } from './sources.ts';

const tree = (files: Record<string, string>): SourceTree => ({
  list: (prefix) => Object.keys(files).filter((file) => file.startsWith(prefix)),
  text: (file) => files[file],
});
const set = (id: string) => {
  const found = LABEL_SETS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no label set ${id}`);
  return found;
};
const A = '0x' + 'ab'.repeat(20);
const B = '0x' + 'cd'.repeat(20);

describe('the label sets', () => {
  it('reads token lists in both shapes, one row per address and chain, named by name and symbol', () => {
    const rows = set('via-tokenlists').read(
      tree({
        'all_tokens/ethereum.json': JSON.stringify([
          { address: A.toUpperCase().replace('0X', '0x'), chainId: 1, name: 'Alpha', symbol: 'ALP' },
          { address: 'not an address', chainId: 1, name: 'Broken' },
          { address: B, chainId: -3, name: 'Bad chain' },
        ]),
        'tokenlists/ethereum.json': JSON.stringify({
          tokens: [
            { address: A, chainId: 1, symbol: 'ALP' },
            { address: B, chainId: 56 },
          ],
        }),
        'README.md': 'not a list',
      }),
    );
    expect(rows).toEqual([
      [A, 1, 'token-list', 'Alpha (ALP)', 'token'],
      [B, 56, 'token-list', null, 'token'],
    ]);
  });

  it('maps Forta’s three tables to labels the categories know, creators included', () => {
    const rows = set('forta-labelled-datasets').read(
      tree({
        'labels/1/phishing_scams.csv': `address,etherscan_tag,etherscan_labels,is_contract\n${A},Fake_Phishing1,phish-hack,False\n`,
        'labels/1/etherscan_malicious_labels.csv': `banned_address,wallet_tag,data_source\n${B},Exploiter 2,etherscan-heist-list\n`,
        'labels/10/malicious_smart_contracts.csv': `contract_address,contract_tag,contract_creator,contract_creator_tag,source,notes\n${A},Drainer,${B},Drainer Deployer,x,\n`,
      }),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        [A, 1, 'phish-hack', 'Fake_Phishing1', 'account'],
        [B, 1, 'heist', 'Exploiter 2', 'account'],
        [A, 10, 'malicious-contract', 'Drainer', 'account'],
        [B, 10, 'malicious-contract-deployer', 'Drainer Deployer', 'account'],
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it('reads Tokenlistooor’s lists, its pool lists as DEX pools on Ethereum only, named without empty sides', () => {
    const C = '0x' + 'ef'.repeat(20);
    const list = (tokens: object[]) => JSON.stringify({ name: 'x', tokens });
    const rows = set('smoldapp-tokenlists').read(
      tree({
        'lists/1/coingecko.json': list([{ address: A, chainId: 1, name: 'Alpha', symbol: 'ALP' }]),
        'lists/8453.json': list([{ address: A, chainId: 8453, name: 'Alpha', symbol: 'ALP' }]),
        'lists/1/uniswap-pools.json': list([
          { address: B, chainId: 1, name: 'Uniswap V2 Alpha + Beta', symbol: 'UNI-V2 ALP + BET' },
          { address: C, chainId: 1, name: 'SushiSwap LP Token  + ', symbol: 'SLP  + ' },
        ]),
        // The same LP address again under another chain: not taken.
        'lists/137/sushiswap-pools.json': list([
          { address: B, chainId: 137, name: 'SushiSwap LP Token  + ' },
        ]),
        'lists/uniswap-pools.json': list([{ address: C, chainId: 10, name: 'Uniswap V2  + ' }]),
        'generators/main.go': 'package main',
      }),
    );
    expect(rows).toEqual([
      [A, 1, 'token-list', 'Alpha (ALP)', 'token'],
      [A, 8453, 'token-list', 'Alpha (ALP)', 'token'],
      [B, 1, 'dex-pool', 'Uniswap V2 Alpha + Beta', 'token'],
      [C, 1, 'dex-pool', 'SushiSwap LP Token', 'token'],
    ]);
  });

  it('reads etherscan-labels’ explorer maps with each explorer’s chain, a row per label', () => {
    const rows = set('etherscan-labels').read(
      tree({
        'data/bscscan/combined/combinedAllLabels.json': JSON.stringify({
          [A]: { name: 'Binance 7', labels: ['binance', 'exchange'] },
        }),
      }),
    );
    expect(rows).toEqual([
      [A, 56, 'binance', 'Binance 7', 'account'],
      [A, 56, 'exchange', 'Binance 7', 'account'],
    ]);
  });
});

describe('the committed label snapshots', () => {
  it.each(SNAPSHOT_IDS)(
    '%s: its rows reach the label index, those no earlier source gives under its own name',
    (id) => {
      const { rows, commit } = readSnapshot(id);
      expect(rows.length).toBeGreaterThan(1_000);
      const middle = rows[Math.floor(rows.length / 2)];
      if (!middle) throw new Error(`the ${id} snapshot is empty`);
      const [address, chainId, label] = middle;
      expect(labelsOnChain(chainId, address).map((row) => row.label)).toContain(label);
      const tag = `${id}@${commit.slice(0, 12)}`;
      expect(loadLabelRows().filter((row) => row.source === tag).length).toBeGreaterThan(1_000);
    },
  );

  it('labels Uniswap V2 pools at the address Uniswap’s factory derives for their two tokens', () => {
    // Outside measure: the pair address CREATE2 gives from the mainnet factory, the two tokens and
    // the hash of the pair's creation code in Uniswap's own package, not from any list.
    const pair = createRequire(import.meta.url)('@uniswap/v2-core/build/UniswapV2Pair.json') as {
      bytecode: string;
    };
    const factory = '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f';
    const tokens = {
      USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      WETH: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
      WBTC: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599',
    } as const;
    const pairAddress = (a: Hex, b: Hex) => {
      const [token0, token1] = a < b ? [a, b] : [b, a];
      return getContractAddress({
        opcode: 'CREATE2',
        from: factory,
        salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
        bytecodeHash: keccak256(`0x${pair.bytecode.replace(/^0x/, '')}`),
      }).toLowerCase();
    };
    for (const [a, b, name] of [
      [tokens.USDC, tokens.WETH, 'Uniswap V2 USD Coin + Wrapped Ether'],
      [tokens.WBTC, tokens.USDC, 'Uniswap V2 Wrapped BTC + USD Coin'],
    ] as const)
      expect(labelsOnChain(1, pairAddress(a, b))).toContainEqual(
        expect.objectContaining({ label: 'dex-pool', category: 'dex', name_tag: name }),
      );
  });

  it('labels Safe’s singletons on every chain Safe’s registry names', () => {
    const rows = safeDeploymentRows(sourceVersion(SAFE_PACKAGE));
    const l2 = rows.filter((row) => row.name_tag === 'Safe: GnosisSafeL2 1.3.0');
    // The canonical and the EIP-155 deployment are both on Ethereum; dozens of chains carry one.
    expect(l2.filter((row) => row.chain_id === 1)).toHaveLength(2);
    expect(new Set(l2.map((row) => row.chain_id)).size).toBeGreaterThan(50);
    expect(labelsOnChain(1, '0x3e5c63644e683549055b9be8653de26e0b4cd36e')).toContainEqual(
      expect.objectContaining({ label: 'safe', category: 'smart_wallet' }),
    );
  });

  it('labels every Aave market’s contracts by their place in Aave’s address book, its assets as tokens', () => {
    const rows = aaveAddressBookRows(sourceVersion(AAVE_PACKAGE));
    // Aave V3's pool on Ethereum, and the market's USDC: the asset itself is USDC's, not Aave's.
    expect(labelsOnChain(1, '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2')).toContainEqual(
      expect.objectContaining({ label: 'aave', category: 'defi', name_tag: 'Aave: AaveV3Ethereum POOL' }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        chain_id: 1,
        label: 'token-list',
        name_tag: 'USDC',
      }),
    );
    expect(
      rows.some(
        (row) => row.address === '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' && row.label === 'aave',
      ),
    ).toBe(false);
    expect(rows.filter((row) => row.label === 'chainlink').length).toBeGreaterThan(50);
    expect(new Set(rows.map((row) => row.chain_id)).size).toBeGreaterThan(10);
    expect(rows.every((row) => /^0x[0-9a-f]{40}$/.test(row.address) && !/^0x0{40}$/.test(row.address))).toBe(
      true,
    );
  });
});
