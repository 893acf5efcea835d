import { type Address, getContractAddress, type Hex, isHex, parseAbi } from 'viem';
import artifact from './contracts/HoneypotDetector.json' with { type: 'json' };

/**
 * Where simulations place the detector's code with a state override. Derived from
 * keccak256("vigil.honeypot-detector"), so it holds nothing on any real chain.
 */
export const HONEYPOT_DETECTOR_ADDRESS: Address = '0x03CE4D511fd969Ae9C01fe10d11C6917cC1170dA';

/** The detector's ABI, typed; a test checks it against the compiled artifact. */
export const honeypotDetectorAbi = parseAbi([
  'struct Leg { bool attempted; bool ok; uint256 amountIn; uint256 expected; uint256 received; uint256 gasUsed; bytes revertData; }',
  'struct Result { address weth; address pair; Leg buy; Leg transfer; Leg sell; Leg sellPartial; Leg buyAgain; Leg sellAgain; Leg largeBuy; }',
  'struct Around { uint256 actorBefore; uint256 actorAfter; uint256 pairBefore; uint256 pairAfter; uint256 selfBefore; uint256 selfAfter; uint256 pairWethBefore; uint256 pairWethAfter; }',
  'struct Effect { bool ok; bytes revertData; uint256 gasUsed; uint256 supplyBefore; uint256 supplyAfter; uint256 victimBefore; uint256 victimAfter; address ownerAfter; Leg victimTransfer; Leg victimEarlySell; Leg victimSell; Around around; }',
  'struct Plan { address actor; address token; address router; address weth; address sellTo; bool earlySell; bytes call; }',
  'function act(address token, address weth, address sellTo, bytes call) returns (Effect e)',
  'function buyIsolated(address router, address token, uint256 amountIn, address recipient)',
  'function effectOf(address factory, Plan plan)',
  'function holderOf(address factory) pure returns (address holder)',
  'function holderPlan() view returns (Plan plan)',
  'function holderStep(Plan plan) returns (bytes answer)',
  'function onFlashLoan(address initiator, address token, uint256 amount, uint256 fee, bytes data) returns (bytes32 success)',
  'function probe(address token, address router, address factory, uint256 buyWei, address sellTo, bytes[] calls) returns (Leg victimBuy, Effect baseline, Effect[] effects, uint256 stepGas)',
  'function roundTrip(address router, address token, uint256 amountIn, uint256 largeAmountIn) returns (Result r)',
  'function sellAll(address router, address token) returns (Leg leg)',
]);

function runtimeCode(code: string): Hex {
  if (!isHex(code) || code.length <= 2) throw new Error('HoneypotDetector.json holds no runtime code');
  return code;
}

/** Runtime code of contracts/HoneypotDetector.sol, compiled ahead of time (see HoneypotDetector.json). */
export const HONEYPOT_DETECTOR_CODE: Hex = runtimeCode(artifact.deployedBytecode);

/**
 * Where the detector put at `factory` creates the probe's holder (ProbeHolder, by CREATE2 with a
 * zero salt): a test checks it against the detector's own holderOf.
 */
export function probeHolderAddress(factory: Address): Address {
  if (!isHex(artifact.probeHolderCodeHash))
    throw new Error('HoneypotDetector.json holds no ProbeHolder hash');
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: new Uint8Array(32),
    bytecodeHash: artifact.probeHolderCodeHash,
  });
}
