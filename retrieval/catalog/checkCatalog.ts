import { CHECKS } from '../../scanner/core/checks.ts';

/** Where the check catalog is cited from. */
export const CHECK_CATALOG_PATH = 'scanner/core/checks.ts';

/**
 * The risk model's check catalog as a Markdown document, one section per flag, so questions such
 * as "what does lp_unlocked mean?" find the check by its flag name and by its meaning. What fails
 * each check, in detail, is in docs/risk-model.md, which is ingested beside it.
 */
export function checkCatalogDocument(): string {
  const sections = Object.entries(CHECKS).map(([id, check]) => {
    const definition = check as {
      category: string;
      severity: string;
      title: string;
      gate?: boolean;
      green?: string;
    };
    return [
      `## ${id}`,
      '',
      `${definition.title}. The \`${id}\` flag is a ${definition.category.replaceAll('_', ' ')} check of default severity ${definition.severity}.`,
      definition.gate ? 'It is a gate: when it fails, the risk score is at least 90.' : 'It is not a gate.',
      definition.green ? `When it passes, the result shows the green flag "${definition.green}".` : '',
    ]
      .filter((line, index) => index < 3 || line !== '')
      .join('\n');
  });
  return [
    '# The check catalog',
    '',
    'Every check of the risk model, by flag name.',
    '',
    sections.join('\n\n'),
  ].join('\n');
}
