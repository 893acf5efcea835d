// The floor workflows beside every workflow Vigil runs: the bundle every worker loaded before
// each pool bundled its own.
export * from '../../workflows/index.ts';
export * from './workflows.ts';
