import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first (the end-to-end stack and the conformance suites: 100-180 s each on
 * two cores, against seconds for most), so neither of the two workers is left running one of them
 * alone at the end of a run. Vitest orders by the last run's durations when it has them; a clean
 * clone (CI) has none, and its order by file size put a 105 s suite last.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (file: TestSpecification) => /[\\/]test[\\/](e2e|conformance)[\\/]/.test(file.moduleId);
    return [...sorted.filter(long), ...sorted.filter((file) => !long(file))];
  }
}
