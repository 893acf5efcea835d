// The floor workflows beside the scanner pool's: the bundle its worker loads.
export { scanToken } from '../../workflows/scanToken.ts';
export * from './workflows.ts';
