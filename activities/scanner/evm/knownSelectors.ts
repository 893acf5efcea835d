import { type Hex, toFunctionSelector } from 'viem';

/**
 * Function signatures that grant privileges, grouped by the flag they raise. Selectors are
 * derived from the signatures, never typed in.
 */
export const PRIVILEGED_SIGNATURES = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)', 'issue(uint256)'],
  blacklist: [
    'blacklist(address)',
    'addBlackList(address)',
    'addToBlacklist(address)',
    'setBlacklist(address,bool)',
    'setBlackList(address,bool)',
    'blacklistAddress(address,bool)',
    'setBots(address[])',
    'addBots(address[])',
    'isBlacklisted(address)',
    'isBlackListed(address)',
  ],
  pause: ['pause()', 'unpause()', 'setPaused(bool)', 'setTradingEnabled(bool)', 'enableTrading(bool)'],
  fees: [
    'setFee(uint256)',
    'setFees(uint256,uint256)',
    'setTaxFeePercent(uint256)',
    'setBuyFee(uint256)',
    'setSellFee(uint256)',
    'setTax(uint256)',
    'setTaxes(uint256,uint256)',
    'updateFees(uint256,uint256)',
    'setSellTax(uint256)',
    'setBuyTax(uint256)',
    'setSellTaxBps(uint256)',
    'setBuyTaxBps(uint256)',
    'updateBuyFees(uint256,uint256,uint256)',
    'updateSellFees(uint256,uint256,uint256)',
    'setLiquidityFeePercent(uint256)',
  ],
  limits: [
    'setMaxTxAmount(uint256)',
    'setMaxWalletSize(uint256)',
    'setMaxTxPercent(uint256)',
    'setMaxWallet(uint256)',
    'updateMaxTxnAmount(uint256)',
    'updateMaxWalletAmount(uint256)',
    'setMaxTransactionAmount(uint256)',
  ],
} as const;

export type PrivilegeGroup = keyof typeof PRIVILEGED_SIGNATURES;

const SELECTORS = Object.fromEntries(
  Object.entries(PRIVILEGED_SIGNATURES).map(([group, signatures]) => [
    group,
    signatures.map((signature) => ({ signature, selector: toFunctionSelector(signature) })),
  ]),
) as Record<PrivilegeGroup, { signature: string; selector: Hex }[]>;

/** The privileged functions of a group whose selectors appear in the code. */
export function findPrivileged(
  group: PrivilegeGroup,
  selectors: ReadonlySet<Hex>,
): { signature: string; selector: Hex }[] {
  return SELECTORS[group].filter((entry) => selectors.has(entry.selector));
}
