import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileContracts } from './compile.ts';
import { TOKEN_SPECS } from './tokens.ts';

const scratch = await mkdtemp(join(tmpdir(), 'vigil-solc-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const counter = (value: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Counter} from "./lib/Counter.sol";
contract Start is Counter { constructor() { count = ${value}; } }
`;
const library = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
contract Counter is Ownable(msg.sender) { uint256 public count; }
`;

async function sourceDir(name: string, startValue: number): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(join(dir, 'lib'), { recursive: true });
  await writeFile(join(dir, 'Start.sol'), counter(startValue));
  await writeFile(join(dir, 'lib', 'Counter.sol'), library);
  return dir;
}

describe('compileContracts', () => {
  it('compiles every devnet token contract the scenario names', async () => {
    const artifacts = await compileContracts({ cacheDir: join(scratch, 'cache-devnet') });
    for (const spec of Object.values(TOKEN_SPECS)) {
      const artifact = artifacts[spec.contract];
      expect(artifact, spec.contract).toBeDefined();
      expect(artifact?.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
      expect(artifact?.deployedBytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    }
    // Abstract contracts and interfaces have nothing to deploy.
    expect(artifacts.PairListed).toBeUndefined();
  });

  it('resolves relative and node_modules imports, and serves a second run from the cache', async () => {
    const cacheDir = join(scratch, 'cache-hit');
    const dir = await sourceDir('hit', 1);
    const first = await compileContracts({ sourceDir: dir, cacheDir });
    expect(Object.keys(first).sort()).toEqual(['Counter', 'Start']);
    expect(await readdir(cacheDir)).toHaveLength(1);

    const second = await compileContracts({ sourceDir: dir, cacheDir });
    expect(second).toEqual(first);
    expect(await readdir(cacheDir)).toHaveLength(1);
  });

  it('misses the cache when a source or a setting changes', async () => {
    const cacheDir = join(scratch, 'cache-miss');
    const one = await compileContracts({ sourceDir: await sourceDir('one', 1), cacheDir });
    const two = await compileContracts({ sourceDir: await sourceDir('two', 2), cacheDir });
    expect(two.Start?.bytecode).not.toBe(one.Start?.bytecode);
    await compileContracts({ sourceDir: await sourceDir('two', 2), cacheDir, optimizer: { enabled: true } });
    expect(await readdir(cacheDir)).toHaveLength(3);
  });

  it('recompiles when an imported library file no longer matches the cached entry', async () => {
    const cacheDir = join(scratch, 'cache-import');
    const dir = await sourceDir('import', 3);
    await compileContracts({ sourceDir: dir, cacheDir });
    const [name] = await readdir(cacheDir);
    const file = join(cacheDir, name ?? '');
    const entry = JSON.parse(await readFile(file, 'utf8')) as { imports: Record<string, string> };
    const ownable = '@openzeppelin/contracts/access/Ownable.sol';
    expect(entry.imports[ownable]).toMatch(/^[0-9a-f]{64}$/);
    // As if the installed package had been upgraded since the entry was written.
    await writeFile(
      file,
      JSON.stringify({ ...entry, imports: { ...entry.imports, [ownable]: '0'.repeat(64) } }),
    );

    await compileContracts({ sourceDir: dir, cacheDir });
    const rewritten = JSON.parse(await readFile(file, 'utf8')) as { imports: Record<string, string> };
    expect(rewritten.imports[ownable]).toBe(entry.imports[ownable]);
  });

  it('reports solc errors with their messages', async () => {
    const dir = join(scratch, 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'Broken.sol'),
      'pragma solidity ^0.8.24; contract Broken { function f() public { undefinedThing(); } }',
    );
    await expect(
      compileContracts({ sourceDir: dir, cacheDir: join(scratch, 'cache-broken') }),
    ).rejects.toThrow(/Undeclared identifier/);
  });
});
