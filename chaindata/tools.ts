import { AnalyticsQueryInput, LabelsQueryInput } from '../core/catalog/dataInputs.ts';
import type { Analytics } from './analytics/sandbox.ts';
import { asProblem } from './errors.ts';
import { labelStats, queryLabels } from './labels/labels.ts';
import { rawQuery } from './query/rawQuery.ts';

/** The chain-data functions the tool catalog runs (see core/catalog/tools.ts, run kind `data`). */
export const DataToolFn = {
  analyticsQuery: 'analyticsQuery',
  parquetQuery: 'parquetQuery',
  labelsQuery: 'labelsQuery',
  labelsStats: 'labelsStats',
} as const;
export type DataToolFn = (typeof DataToolFn)[keyof typeof DataToolFn];

/** Same shape as the tool runner's outcome: data, or nothing found (answered 200, never charged). */
export type DataToolOutcome = { kind: 'data'; data: unknown } | { kind: 'empty'; sourcesTried: string[] };

/**
 * Runs the chain-data tools against the analytics engine. Inputs were validated by the gateway
 * against the same schemas; they are parsed again here because this is the library's own edge.
 */
export class DataTools {
  readonly #engine: () => Promise<Analytics>;

  constructor(engine: () => Promise<Analytics>) {
    this.#engine = engine;
  }

  run(fn: DataToolFn, input: unknown): Promise<DataToolOutcome> {
    return asProblem(async () => {
      const engine = await this.#engine();
      switch (fn) {
        case DataToolFn.analyticsQuery: {
          const { sql, max_rows } = AnalyticsQueryInput.parse(input);
          const result = await engine.query(sql, max_rows === undefined ? {} : { maxRows: max_rows });
          return result.row_count === 0
            ? { kind: 'empty', sourcesTried: ['analytics'] }
            : { kind: 'data', data: result };
        }
        case DataToolFn.parquetQuery: {
          const page = await rawQuery(engine, input);
          return page.count === 0 ? { kind: 'empty', sourcesTried: ['index'] } : { kind: 'data', data: page };
        }
        case DataToolFn.labelsQuery: {
          const query = LabelsQueryInput.parse(input);
          const labels = await queryLabels(engine, { ...query, limit: query.limit ?? 100 });
          return labels.length === 0
            ? { kind: 'empty', sourcesTried: ['labels'] }
            : { kind: 'data', data: { count: labels.length, labels } };
        }
        case DataToolFn.labelsStats:
          return { kind: 'data', data: await labelStats(engine) };
      }
    });
  }
}
