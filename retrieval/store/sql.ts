/**
 * LanceDB filters are SQL expressions. Values that reach them are validated at the API to a
 * narrow alphabet first; quoting here is the second line, so no caller input can end the literal.
 */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function whereAll(conditions: readonly (string | undefined)[]): string | undefined {
  const present = conditions.filter((condition): condition is string => Boolean(condition));
  return present.length > 0 ? present.map((condition) => `(${condition})`).join(' AND ') : undefined;
}
