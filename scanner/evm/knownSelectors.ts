import {
  type AbiFunction,
  type Address,
  encodeFunctionData,
  type Hex,
  parseAbiItem,
  toFunctionSelector,
} from 'viem';

/** What the probe fills arguments with. */
export interface ProbeArguments {
  /** An ordinary holder the call is aimed at. */
  victim: Address;
  /** The account making the call. */
  actor: Address;
  /** A meaningful token amount (1 % of the supply). */
  amount: bigint;
}

type ArgBuilder = (context: ProbeArguments) => readonly unknown[];

interface PrivilegedFunction {
  signature: string;
  /** How to call it in a probe; absent for getters, whose presence alone is the finding. */
  args?: ArgBuilder;
}

const victim: ArgBuilder = ({ victim }) => [victim];
const victimTrue: ArgBuilder = ({ victim }) => [victim, true];
const victimList: ArgBuilder = ({ victim }) => [[victim]];
const toVictim: ArgBuilder = ({ victim, amount }) => [victim, amount];
const amountOnly: ArgBuilder = ({ amount }) => [amount];
const none: ArgBuilder = () => [];
const one: ArgBuilder = () => [1n];
// A fee value valid both as a percentage and in basis points, under the caps setters often have.
const fee: ArgBuilder = () => [25n];
const twoFees: ArgBuilder = () => [25n, 25n];
const threeFees: ArgBuilder = () => [5n, 5n, 5n];
const setTo1: ArgBuilder = ({ victim }) => [victim, 1n];

/**
 * Functions that grant privileges, grouped by the flag they raise, with the arguments a probe
 * calls them with. Selectors are derived from the signatures, never typed in.
 */
const PRIVILEGED_FUNCTIONS = {
  mint: [
    { signature: 'mint(address,uint256)', args: toVictim },
    { signature: 'mint(uint256)', args: amountOnly },
    { signature: 'mintTo(address,uint256)', args: toVictim },
    { signature: 'issue(uint256)', args: amountOnly },
  ],
  blacklist: [
    { signature: 'blacklist(address)', args: victim },
    { signature: 'addBlackList(address)', args: victim },
    { signature: 'addToBlacklist(address)', args: victim },
    { signature: 'setBlacklist(address,bool)', args: victimTrue },
    { signature: 'setBlackList(address,bool)', args: victimTrue },
    { signature: 'blacklistAddress(address,bool)', args: victimTrue },
    { signature: 'setBots(address[])', args: victimList },
    { signature: 'addBots(address[])', args: victimList },
    { signature: 'isBlacklisted(address)' },
    { signature: 'isBlackListed(address)' },
  ],
  whitelist: [
    { signature: 'setWhitelist(address,bool)', args: victimTrue },
    { signature: 'setWhitelisted(address,bool)', args: victimTrue },
    { signature: 'addToWhitelist(address)', args: victim },
    { signature: 'whitelistAddress(address)', args: victim },
    { signature: 'setWhitelistEnabled(bool)', args: () => [true] },
    { signature: 'isWhitelisted(address)' },
  ],
  pause: [
    { signature: 'pause()', args: none },
    { signature: 'setPaused(bool)', args: () => [true] },
    { signature: 'setTradingEnabled(bool)', args: () => [false] },
    { signature: 'enableTrading(bool)', args: () => [false] },
    { signature: 'enableTrading()', args: none },
    { signature: 'openTrading()', args: none },
    { signature: 'unpause()' },
  ],
  fees: [
    { signature: 'setFee(uint256)', args: fee },
    { signature: 'setFees(uint256,uint256)', args: twoFees },
    { signature: 'setTaxFeePercent(uint256)', args: fee },
    { signature: 'setBuyFee(uint256)', args: fee },
    { signature: 'setSellFee(uint256)', args: fee },
    { signature: 'setTax(uint256)', args: fee },
    { signature: 'setTaxes(uint256,uint256)', args: twoFees },
    { signature: 'updateFees(uint256,uint256)', args: twoFees },
    { signature: 'setSellTax(uint256)', args: fee },
    { signature: 'setBuyTax(uint256)', args: fee },
    { signature: 'setSellTaxBps(uint256)', args: fee },
    { signature: 'setBuyTaxBps(uint256)', args: fee },
    { signature: 'updateBuyFees(uint256,uint256,uint256)', args: threeFees },
    { signature: 'updateSellFees(uint256,uint256,uint256)', args: threeFees },
    { signature: 'setLiquidityFeePercent(uint256)', args: fee },
  ],
  limits: [
    { signature: 'setMaxTxAmount(uint256)', args: one },
    { signature: 'setMaxWalletSize(uint256)', args: one },
    { signature: 'setMaxTxPercent(uint256)', args: one },
    { signature: 'setMaxWallet(uint256)', args: one },
    { signature: 'updateMaxTxnAmount(uint256)', args: one },
    { signature: 'updateMaxWalletAmount(uint256)', args: one },
    { signature: 'setMaxTransactionAmount(uint256)', args: one },
    { signature: 'setLimits(uint256,uint256)', args: () => [1n, 1n] },
  ],
  balance: [
    { signature: 'setBalance(address,uint256)', args: setTo1 },
    { signature: 'updateBalance(address,uint256)', args: setTo1 },
    { signature: 'burn(address,uint256)', args: setTo1 },
    { signature: 'burnFrom(address,uint256)', args: setTo1 },
    { signature: 'adminBurn(address,uint256)', args: setTo1 },
    { signature: 'confiscate(address)', args: victim },
    { signature: 'wipe(address)', args: victim },
  ],
  /** Ways a former owner takes a renounced contract back; probed only when owner() is zero. */
  reclaim: [
    { signature: 'unlock()', args: none },
    { signature: 'reclaimOwnership()', args: none },
    { signature: 'claimOwnership()', args: none },
    { signature: 'acceptOwnership()', args: none },
    { signature: 'transferOwnership(address)', args: ({ actor }) => [actor] },
  ],
} as const satisfies Record<string, readonly PrivilegedFunction[]>;

export type PrivilegeGroup = keyof typeof PRIVILEGED_FUNCTIONS;

export interface PrivilegedEntry {
  group: PrivilegeGroup;
  signature: string;
  selector: Hex;
  args?: ArgBuilder;
}

const ENTRIES: PrivilegedEntry[] = Object.entries(PRIVILEGED_FUNCTIONS).flatMap(([group, functions]) =>
  (functions as readonly PrivilegedFunction[]).map((entry) => ({
    group: group as PrivilegeGroup,
    signature: entry.signature,
    selector: toFunctionSelector(entry.signature),
    ...(entry.args ? { args: entry.args } : {}),
  })),
);

/** The privileged functions of a group whose selectors appear in the code. */
export function findPrivileged(group: PrivilegeGroup, selectors: ReadonlySet<Hex>): PrivilegedEntry[] {
  return ENTRIES.filter((entry) => entry.group === group && selectors.has(entry.selector));
}

/** The calldata a probe sends for an entry, or undefined for a getter. */
export function probeCalldata(entry: PrivilegedEntry, context: ProbeArguments): Hex | undefined {
  if (!entry.args) return undefined;
  const item = parseAbiItem(`function ${entry.signature}`) as AbiFunction;
  return encodeFunctionData({ abi: [item], functionName: item.name, args: entry.args(context) });
}
