// The workflows the scanner pool runs: its worker bundles only these (a workflow's first
// activation evaluates its whole bundle's modules; docs/benchmarks.md).
export { scanToken } from '../scanToken.ts';
