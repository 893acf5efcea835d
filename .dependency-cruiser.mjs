// Import boundaries between Vigil's layers, checked by `npm run lint` (dependency-cruiser).
// docs/architecture.md explains the layers; a rule here is the enforceable part of it.

/** Sandbox-safe code: the top-level core/ and each library's core/ folder (importable from workflows). */
const SANDBOX_SAFE = ['^core/', '^[a-z]+/core/'];
/**
 * Payment code that still lives in core/ although it does I/O; it moves into a payments/ library,
 * and then leaves this list. Workflows may import only its types.
 */
const NOT_YET_SANDBOX_SAFE = [
  '^core/stores/',
  '^core/x402/(proof|svmProof|digest|facilitatorClient|refund)\\.ts$',
];
/** The process layers: services, worker pools, activity adapters, workflows. */
const PROCESSES = '^(api|workers|activities|workflows)/';
/** Tests, benchmarks, provisioning and the dev stack; and the config files at the root. */
const TOOLING = ['^(test|bench|infra)/', '^[^/]+$', '\\.test\\.ts$'];
/** npm packages sandbox-safe code may use: the workflow SDK and zod. */
const SANDBOX_SAFE_PACKAGES = ['^node_modules/(zod|@temporalio/(workflow|common))/'];

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be understood, tested or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflows-import-sandbox-safe-code',
      comment:
        'Workflow code is replayed in a sandbox: it imports only sandbox-safe code (core/, <library>/core/); ' +
        'activities and stores are imported as types only.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: ['^workflows/', ...SANDBOX_SAFE, ...SANDBOX_SAFE_PACKAGES],
      },
    },
    {
      name: 'workflows-not-into-payment-io',
      comment: 'The payment modules still in core/ do I/O: workflows import their types only.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { dependencyTypesNot: ['type-only'], path: NOT_YET_SANDBOX_SAFE },
    },
    {
      name: 'sandbox-safe-code-stays-pure',
      comment:
        'core/ and <library>/core/ may be bundled into workflows: no Node built-ins, no I/O packages, ' +
        'nothing outside sandbox-safe code (types excepted).',
      severity: 'error',
      from: { path: SANDBOX_SAFE, pathNot: [...NOT_YET_SANDBOX_SAFE, '\\.test\\.ts$'] },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: [...SANDBOX_SAFE, ...SANDBOX_SAFE_PACKAGES],
      },
    },
    {
      name: 'api-never-imports-activities',
      comment: 'Services validate, start workflows and read stores; activities are the workers’ adapters.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^activities/' },
    },
    {
      name: 'libraries-below-the-processes',
      comment:
        'Every other top-level folder is a library (core/, clients/, scanner/, scraper/...): it knows nothing of ' +
        'the services, workers, activities or workflows built on it.',
      severity: 'error',
      from: { pathNot: [PROCESSES, ...TOOLING] },
      to: { path: PROCESSES },
    },
    {
      name: 'activities-are-adapters',
      comment: 'An activity adapts a library to Temporal; it never reaches into services or workers.',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|workers)/' },
    },
    {
      name: 'production-code-not-into-tests',
      comment: 'Tests, benchmarks and the dev tooling are not shipped.',
      severity: 'error',
      from: { pathNot: TOOLING },
      to: { path: '^(test|bench|infra)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.tools|\\.data)/' },
    // Resolve packages through their `exports` as Node does for ESM, so type-only imports of a
    // package subpath (`@x402/core/types`) are recognised as such.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
