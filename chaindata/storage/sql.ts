/** A SQL string literal. Paths are Vigil's own (data folder, chain slug, range), quoted anyway. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
