import { AnalyticsEngine, type AnalyticsLimits } from './analytics/engine.ts';
import { ensureLabelsFile } from './labels/labelFile.ts';
import { IndexStore } from './storage/indexStore.ts';
import { ParquetWriter } from './storage/parquetWriter.ts';

/**
 * Opens the analytics engine over a chain-data root, first making sure the root has what every
 * view reads: each table's schema file and the labels (built from the installed label sources).
 */
export async function openAnalytics(
  root: string,
  limits: Partial<AnalyticsLimits> = {},
): Promise<AnalyticsEngine> {
  const store = new IndexStore(root);
  const writer = new ParquetWriter();
  try {
    await store.ensureSchema();
    await ensureLabelsFile(root, writer);
  } finally {
    await Promise.all([store.close(), writer.close()]);
  }
  return AnalyticsEngine.open(root, limits);
}
