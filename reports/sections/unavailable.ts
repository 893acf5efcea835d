/** A section that cannot be written for this subject (no data for it): marked failed, not retried. */
export class SectionUnavailable extends Error {
  override readonly name = 'SectionUnavailable';
}
