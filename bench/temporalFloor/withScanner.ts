export { scanToken } from '../../workflows/scanToken.ts';
export * from './workflows.ts';
