import { type Check, type CheckStatus, type Evidence, RiskCategory, Severity } from './schema.ts';

interface CheckDefinition {
  readonly category: RiskCategory;
  /** Severity of a failure unless the engine sets one from the measured value. */
  readonly severity: Severity;
  readonly title: string;
  readonly gate?: boolean;
  /** Shown as a green flag when it passes. */
  readonly green?: string;
}

const contract = RiskCategory.contractSafety;

/** Every check Vigil runs, by flag name. Engines only decide status, detail, value and evidence. */
export const CHECKS = {
  owner_not_renounced: {
    category: contract,
    severity: Severity.low,
    title: 'Contract has an active owner',
    green: 'Ownership renounced',
  },
  is_mintable: {
    category: contract,
    severity: Severity.high,
    title: 'Supply can be minted',
    green: 'No mint function',
  },
  is_blacklisted: { category: contract, severity: Severity.medium, title: 'Addresses can be blacklisted' },
  transfer_pausable: { category: contract, severity: Severity.medium, title: 'Transfers can be paused' },
  slippage_modifiable: {
    category: contract,
    severity: Severity.medium,
    title: 'Taxes can be changed by the owner',
  },
  is_anti_whale: { category: contract, severity: Severity.low, title: 'Max transaction / wallet limits' },
  is_proxy: { category: contract, severity: Severity.medium, title: 'Upgradeable proxy' },
  selfdestruct: { category: contract, severity: Severity.high, title: 'Contract can self-destruct' },
  external_call: { category: contract, severity: Severity.medium, title: 'Delegates calls to other code' },
  is_honeypot: {
    category: contract,
    severity: Severity.critical,
    title: 'Honeypot: sells fail',
    gate: true,
    green: 'Buy and sell succeed in simulation',
  },
  cannot_buy: { category: contract, severity: Severity.high, title: 'Buys fail in simulation' },
  buy_tax: { category: contract, severity: Severity.medium, title: 'Buy tax', green: 'No buy tax' },
  sell_tax: { category: contract, severity: Severity.medium, title: 'Sell tax', green: 'No sell tax' },
  transfer_tax: { category: contract, severity: Severity.medium, title: 'Transfer tax' },
} as const satisfies Record<string, CheckDefinition>;

export type CheckId = keyof typeof CHECKS;

export interface CheckInput {
  status: CheckStatus;
  detail: string;
  evidence?: Evidence[];
  value?: string | number | boolean | null;
  severity?: Severity;
  /** Set false for a pass that is not worth a green flag (e.g. no owner getter at all). */
  green?: boolean;
}

/** Builds a check from its catalog entry and what the engine found. */
export function makeCheck(id: CheckId, input: CheckInput): Check {
  const definition: CheckDefinition = CHECKS[id];
  const check: Check = {
    id,
    category: definition.category,
    status: input.status,
    severity: input.severity ?? definition.severity,
    title:
      input.status === 'pass' && definition.green && input.green !== false
        ? definition.green
        : definition.title,
    detail: input.detail,
    evidence: input.evidence ?? [],
  };
  if (input.value !== undefined) check.value = input.value;
  if (definition.gate) check.gate = true;
  if (definition.green && input.green !== false) check.green = true;
  return check;
}

/** The check an engine could not decide, with the reason as evidence. */
export function unknownCheck(id: CheckId, reason: string): Check {
  return makeCheck(id, { status: 'unknown', detail: reason, evidence: [{ kind: 'note', summary: reason }] });
}
