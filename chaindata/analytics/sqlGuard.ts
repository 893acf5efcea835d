/**
 * What user SQL may do, decided on DuckDB's own parse tree (json_serialize_sql), not on the text:
 * exactly one SELECT (a WITH ... SELECT, UNION and VALUES included) whose tables are Vigil's views
 * or its own CTEs, whose table functions are pure generators, and whose functions read no
 * settings. Everything else is refused before the query is bound, so no file is ever opened for
 * it. The engine's locked configuration (no external access) is the second wall, not the first.
 */
const MAX_SQL_LENGTH = 20_000;

/** Row generators that touch no file, setting or catalog. */
const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

/** Scalar functions that reveal the engine's settings, environment or catalog definitions. */
const DENIED_FUNCTIONS = new Set([
  'current_setting',
  'getenv',
  'getvariable',
  'pg_get_viewdef',
  'pg_get_constraintdef',
  'current_database',
  'current_catalog',
  'current_schemas',
  'current_query',
  'query',
  'query_table',
  // The engine's exact version tells an attacker which of its known bugs to try.
  'version',
  // Amplifiers: one call builds a value of any size in a single step that neither the time limit
  // (checked between chunks) nor the memory limit (buffer-managed data only) sees in time.
  'repeat',
  'lpad',
  'rpad',
  'printf',
  'format',
  'bar',
  'list_resize',
  'array_resize',
  'range',
  'generate_series',
  'to_base',
  // A replacement longer than what it replaces multiplies a string's length; nested, a few levels
  // build gigabytes in one step (found by the sandbox's attack suite). translate() maps a
  // character to at most one and stays.
  'replace',
  'regexp_replace',
]);
const DENIED_FUNCTION_PREFIXES = ['read_', 'duckdb_', 'pragma_', 'parquet_', 'glob', 'sniff_', 'icu_'];

/** Table references DuckDB's tree can hold; only these are walked into. */
const TABLE_REF_TYPES = new Set([
  'BASE_TABLE',
  'JOIN',
  'SUBQUERY',
  'EXPRESSION_LIST',
  'EMPTY',
  'EMPTY_FROM',
  'TABLE_FUNCTION',
]);

export class SqlRejected extends Error {
  override readonly name = 'SqlRejected';
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface ParsedSql {
  error: boolean;
  error_message?: string;
  statements?: unknown[];
}

/** Checks the text before anything parses it. */
export function checkSqlText(sql: string): void {
  if (sql.trim().length === 0) throw new SqlRejected('empty', 'The query is empty.');
  if (sql.length > MAX_SQL_LENGTH)
    throw new SqlRejected('too_long', `The query is longer than ${MAX_SQL_LENGTH} characters.`);
  // NUL and other C0 controls have no place in SQL and have fooled parsers before.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/u.test(sql))
    throw new SqlRejected('control_characters', 'The query contains control characters.');
}

/** Checks DuckDB's parse of the query against what user SQL may do. */
export function checkParsedSql(parsed: ParsedSql, views: ReadonlySet<string>): void {
  if (parsed.error) {
    const message = parsed.error_message ?? 'unparsable';
    if (/Only SELECT statements/i.test(message))
      throw new SqlRejected('not_select', 'Only one SELECT (or WITH ... SELECT) statement is allowed.');
    throw new SqlRejected('parse_error', `The query does not parse: ${message.slice(0, 300)}`);
  }
  const statements = parsed.statements ?? [];
  if (statements.length !== 1)
    throw new SqlRejected('statement_count', `Exactly one statement is allowed; got ${statements.length}.`);
  // The call inside a table function reference is checked as a table function, not again as a scalar.
  const tableCalls = new WeakSet<object>();
  walk(statements[0], (node, ctes) => checkNode(node, views, ctes, tableCalls));
}

function checkNode(
  node: Record<string, unknown>,
  views: ReadonlySet<string>,
  ctes: ReadonlySet<string>,
  tableCalls: WeakSet<object>,
): void {
  const type = typeof node.type === 'string' ? node.type : undefined;
  if (typeof node.class === 'string') {
    if (node.class === 'FUNCTION' && !tableCalls.has(node)) checkFunction(text(node.function_name), false);
    return;
  }
  if (type === undefined || !('alias' in node) || !('sample' in node)) return;
  // A table reference.
  if (!TABLE_REF_TYPES.has(type))
    throw new SqlRejected('table_ref', `${type.toLowerCase()} is not allowed in a query.`);
  if (type === 'BASE_TABLE') {
    const name = text(node.table_name).toLowerCase();
    const schema = text(node.schema_name).toLowerCase();
    const catalog = text(node.catalog_name).toLowerCase();
    const qualified = schema !== '' || catalog !== '';
    const known =
      (!qualified && ctes.has(name)) ||
      (views.has(name) && ['', 'main'].includes(schema) && ['', 'memory'].includes(catalog));
    if (!known) {
      // A path or URL is not echoed back: the answer never names files.
      const shown = /^[a-z_][a-z0-9_]*$/.test(name) ? `"${name.slice(0, 64)}" is` : 'Reading files is';
      throw new SqlRejected('unknown_table', `${shown} not one of Vigil's views (${[...views].join(', ')}).`);
    }
  }
  if (type === 'TABLE_FUNCTION') {
    const fn = node.function as Record<string, unknown> | undefined;
    checkFunction(text(fn?.function_name), true);
    if (fn) tableCalls.add(fn);
  }
}

function checkFunction(rawName: string, table: boolean): void {
  const name = rawName.toLowerCase();
  if (table) {
    if (ALLOWED_TABLE_FUNCTIONS.has(name)) return;
    throw new SqlRejected(
      'table_function',
      `The table function ${name.slice(0, 64)}() is not allowed; query Vigil's views.`,
    );
  }
  if (DENIED_FUNCTIONS.has(name) || DENIED_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix)))
    throw new SqlRejected('function', `The function ${name.slice(0, 64)}() is not allowed.`);
}

/**
 * Visits every object in the tree with the CTE names in scope there (depth-first, iterative: a
 * hostile query can nest deeply). Scope matters: a name a CTE declares inside one subquery, seen
 * from outside it, is not that CTE but a replacement scan, which reads the file of that name.
 * A CTE's own body sees only the CTEs declared before it: DuckDB binds a CTE's name inside its own
 * body to the CTE only in the recursive part (the right of the UNION) of a WITH RECURSIVE; anywhere
 * else there (a plain CTE, the anchor) the name is a table, view or file of that name.
 */
function walk(
  root: unknown,
  visit: (node: Record<string, unknown>, ctes: ReadonlySet<string>) => void,
): void {
  const stack: [unknown, ReadonlySet<string>][] = [[root, new Set()]];
  while (stack.length > 0) {
    const [value, ctes] = stack.pop() as [unknown, ReadonlySet<string>];
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) stack.push([item, ctes]);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const node = value as Record<string, unknown>;
    visit(node, ctes);
    const entries = (node.cte_map as { map?: { key?: unknown; value?: unknown }[] } | undefined)?.map ?? [];
    const inScope = new Set(ctes);
    for (const entry of entries) {
      stack.push([entry.value, new Set(inScope)]);
      if (typeof entry.key === 'string') inScope.add(entry.key.toLowerCase());
    }
    const recursive =
      node.type === 'RECURSIVE_CTE_NODE' && typeof node.cte_name === 'string'
        ? new Set([...inScope, node.cte_name.toLowerCase()])
        : undefined;
    for (const [key, child] of Object.entries(node))
      if (key !== 'cte_map') stack.push([child, key === 'right' && recursive ? recursive : inScope]);
  }
}

/** A name field of the tree (always a string in DuckDB's serialisation; anything else reads as empty). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
