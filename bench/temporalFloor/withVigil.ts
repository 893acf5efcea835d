// The floor workflows beside every workflow Vigil's workers run: the bundle a worker loads.
export * from '../../workflows/index.ts';
export * from './workflows.ts';
