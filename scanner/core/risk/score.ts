import { downgradeCheck } from '../checks.ts';
import { type Check, CheckStatus, type RiskCategory, Severity } from '../schema.ts';
import {
  ALLOWLIST_NEUTRALISED,
  CATEGORY_WEIGHTS,
  type Confidence,
  confidenceFor,
  GATE_FLOOR,
  MARKET_ONLY_CEILING,
  MARKET_STATE_CHECKS,
  MODEL_VERSION,
  SEVERITY_FLOOR,
  SEVERITY_POINTS,
  type Tier,
  Tier as Tiers,
  tierFor,
} from './model.ts';

interface CategoryScore {
  /** 0 (safe) to 100; null when no check of the category could be decided. */
  score: number | null;
  weight: number;
  /** Share of the category's checks that were decided (pass or fail). */
  coverage: number;
  checks: { pass: number; fail: number; unknown: number };
}

/** One side of the verdict: contract findings (hard evidence) or market state (launch state). */
interface EvidenceSide {
  /** 0-100 from this side's checks alone (severity floors and gates as in the whole score). */
  score: number | null;
  tier: Tier;
  /** Ids of this side's failed checks that carry weight. */
  flags: string[];
}

export interface RiskSummary {
  model_version: string;
  /** 0 (safest) to 100 (most dangerous); null only when nothing at all could be decided. */
  risk_score: number | null;
  tier: Tier;
  confidence: Confidence;
  /** Weighted share of the model's checks that were decided, 0 to 1. */
  coverage: number;
  categories: Record<RiskCategory, CategoryScore>;
  /** Ids of failed gate checks: any one puts the token in the top band. */
  gates: string[];
  /** The token is on the configured allowlist: its governed capabilities weigh nothing. */
  allowlisted: boolean;
  /** The checks as scored (allowlist downgrades applied). */
  checks: Check[];
  flags: Check[];
  green_flags: Check[];
  /** How the score arose, in words, one line per step. */
  explanation: string[];
  /** What the contract lets its insiders do, and did in simulation: hard evidence. */
  contract_findings: EvidenceSide;
  /** Launch-state signals (liquidity lock, holders, deployer age, activity): they change as a token matures. */
  market_state: EvidenceSide;
}

const SEVERITY_ORDER = [Severity.critical, Severity.high, Severity.medium, Severity.low, Severity.info];

export interface ScoreOptions {
  /** Set when the token is on the configured allowlist; says which list. */
  allowlist?: { source: string };
}

const neutralised = new Set<string>(ALLOWLIST_NEUTRALISED);

/**
 * Scores a token from its checks. Unknown checks count neither as safe nor as dangerous: they
 * lower coverage and so confidence. Gates come before weights.
 */
export function scoreToken(input: readonly Check[], options: ScoreOptions = {}): RiskSummary {
  const categories = {} as Record<RiskCategory, CategoryScore>;
  const explanation: string[] = [];
  const { allowlist } = options;
  const checks = allowlist
    ? input.map((check) =>
        neutralised.has(check.id)
          ? downgradeCheck(
              check,
              `allowlisted (${allowlist.source}): a governed capability, not a scam signal`,
            )
          : check,
      )
    : [...input];
  if (allowlist) {
    explanation.push(
      `allowlisted by ${allowlist.source}: governed capabilities (${
        ALLOWLIST_NEUTRALISED.filter((id) =>
          checks.some((check) => check.id === id && check.downgraded),
        ).join(', ') || 'none found'
      }) weigh nothing; simulated behaviour still counts`,
    );
  }
  let weighted = 0;
  let decidedWeight = 0;
  let coverage = 0;

  for (const [category, weight] of Object.entries(CATEGORY_WEIGHTS) as [RiskCategory, number][]) {
    const own = checks.filter((check) => check.category === category);
    const count = (status: CheckStatus) => own.filter((check) => check.status === status).length;
    const tally = {
      pass: count(CheckStatus.pass),
      fail: count(CheckStatus.fail),
      unknown: count(CheckStatus.unknown),
    };
    const decided = tally.pass + tally.fail;
    const categoryCoverage = own.length === 0 ? 0 : decided / own.length;
    let score: number | null = null;
    if (decided > 0) {
      const failed = own.filter((check) => check.status === CheckStatus.fail);
      const points = failed.reduce((sum, check) => sum + SEVERITY_POINTS[check.severity], 0);
      score = Math.min(100, points);
      weighted += weight * score;
      decidedWeight += weight;
      const terms = failed.map(
        (check) =>
          `${check.id} ${check.severity} +${SEVERITY_POINTS[check.severity]}` +
          (check.downgraded ? ` (was ${check.downgraded.from}: ${check.downgraded.reason})` : ''),
      );
      explanation.push(
        `${category}: ${tally.fail} failed of ${decided} decided checks` +
          (terms.length ? ` [${terms.join('; ')}]` : '') +
          ` → ${score}/100${points > 100 ? ' (capped)' : ''}, weight ${weight}` +
          (tally.unknown ? ` (${tally.unknown} unknown)` : ''),
      );
    } else {
      explanation.push(
        `${category}: no decided check → left out of the weighted score, weight ${weight} not counted`,
      );
    }
    coverage += weight * categoryCoverage;
    categories[category] = { score, weight, coverage: round(categoryCoverage, 3), checks: tally };
  }

  const gates = checks
    .filter((check) => check.gate && check.status === CheckStatus.fail)
    .map((check) => check.id);
  let riskScore: number | null = decidedWeight > 0 ? Math.round(weighted / decidedWeight) : null;
  if (riskScore !== null)
    explanation.push(
      `weighted mean over decided categories: ${round(weighted, 2)} / ${round(decidedWeight, 2)} → ${riskScore}`,
    );
  const worst = checks
    .filter((check) => check.status === CheckStatus.fail)
    .reduce<Check | undefined>(
      (top, check) => (!top || SEVERITY_FLOOR[check.severity] > SEVERITY_FLOOR[top.severity] ? check : top),
      undefined,
    );
  if (riskScore !== null && worst && SEVERITY_FLOOR[worst.severity] > riskScore) {
    riskScore = SEVERITY_FLOOR[worst.severity];
    explanation.push(
      `worst finding ${worst.id} is ${worst.severity} → score lifted to its band floor ${riskScore}`,
    );
  }
  const contractSide = side(checks, false);
  const marketSide = side(checks, true);
  if (
    riskScore !== null &&
    riskScore > MARKET_ONLY_CEILING &&
    (contractSide.score ?? 0) <= MARKET_ONLY_CEILING
  ) {
    riskScore = MARKET_ONLY_CEILING;
    explanation.push(
      `launch state alone (${marketSide.flags.join(', ')}) stays below the top band → score capped at ${MARKET_ONLY_CEILING}`,
    );
  }
  if (gates.length > 0) {
    riskScore = Math.max(riskScore ?? 0, GATE_FLOOR);
    explanation.push(`hard gate failed (${gates.join(', ')}) → score lifted to at least ${GATE_FLOOR}`);
  }
  explanation.push(
    `contract findings ${contractSide.score ?? 'n/a'} (${contractSide.tier}${contractSide.flags.length ? `: ${contractSide.flags.join(', ')}` : ''}); ` +
      `market state ${marketSide.score ?? 'n/a'} (${marketSide.tier}${marketSide.flags.length ? `: ${marketSide.flags.join(', ')}` : ''})`,
  );
  coverage = round(coverage, 3);
  const tier = riskScore === null ? Tiers.unknown : tierFor(riskScore);
  const confidence = confidenceFor(coverage);
  explanation.push(
    riskScore === null
      ? 'nothing could be decided → tier unknown'
      : `score ${riskScore} → tier ${tier}; coverage ${coverage} → confidence ${confidence}`,
  );

  const bySeverity = (a: Check, b: Check) =>
    SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity);
  return {
    model_version: MODEL_VERSION,
    risk_score: riskScore,
    tier,
    confidence,
    coverage,
    categories,
    gates,
    allowlisted: allowlist !== undefined,
    checks,
    flags: checks.filter((check) => check.status === CheckStatus.fail).sort(bySeverity),
    green_flags: checks.filter((check) => check.status === CheckStatus.pass && check.green),
    explanation,
    contract_findings: contractSide,
    market_state: marketSide,
  };
}

const marketIds = new Set<string>(MARKET_STATE_CHECKS);

/**
 * The score of one side on its own: the weighted mean of its categories' sub-scores, lifted to the
 * worst finding's floor and, for contract findings, to the gate floor; market state never past
 * its ceiling.
 */
function side(checks: readonly Check[], market: boolean): EvidenceSide {
  const own = checks.filter((check) => marketIds.has(check.id) === market);
  const decided = own.filter((check) => check.status !== CheckStatus.unknown);
  const failed = own.filter((check) => check.status === CheckStatus.fail && check.severity !== Severity.info);
  if (decided.length === 0) return { score: null, tier: Tiers.unknown, flags: [] };
  let weighted = 0;
  let weights = 0;
  for (const [category, weight] of Object.entries(CATEGORY_WEIGHTS) as [RiskCategory, number][]) {
    const inCategory = decided.filter((check) => check.category === category);
    if (inCategory.length === 0) continue;
    const points = failed
      .filter((check) => check.category === category)
      .reduce((sum, check) => sum + SEVERITY_POINTS[check.severity], 0);
    weighted += weight * Math.min(100, points);
    weights += weight;
  }
  let score = Math.round(weighted / weights);
  for (const check of failed) score = Math.max(score, SEVERITY_FLOOR[check.severity]);
  if (!market && failed.some((check) => check.gate)) score = Math.max(score, GATE_FLOOR);
  if (market) score = Math.min(score, MARKET_ONLY_CEILING);
  return { score, tier: tierFor(score), flags: failed.map((check) => check.id) };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
