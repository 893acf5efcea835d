import { AnalyticsEngine, type AnalyticsLimits } from './analytics/engine.ts';
import { ensureLabelsFile } from './labels/labelFile.ts';
import { IndexStore } from './storage/indexStore.ts';
import { type LocationLike, locationOf } from './storage/location.ts';
import { ParquetWriter } from './storage/parquetWriter.ts';

/**
 * Opens the analytics engine over a chain-data location, first making sure it has what every
 * view reads: each table's schema file and the labels (built from the installed label sources,
 * always on the local disk).
 */
export async function openAnalytics(
  where: LocationLike,
  limits: Partial<AnalyticsLimits> = {},
): Promise<AnalyticsEngine> {
  const location = locationOf(where);
  const store = new IndexStore(location);
  const writer = new ParquetWriter();
  try {
    await store.ensureSchema();
    await ensureLabelsFile(location.localRoot, writer);
  } finally {
    await Promise.all([store.close(), writer.close()]);
  }
  return AnalyticsEngine.open(location, limits);
}
