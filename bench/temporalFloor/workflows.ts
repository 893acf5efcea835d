// Workflows that do nothing but Temporal's own work, for bench/temporalFloor.ts: no activity, one
// local activity, and a scan's shape (one local activity, three in parallel, one more).
import { proxyLocalActivities } from '@temporalio/workflow';

const { step } = proxyLocalActivities<{ step(): Promise<number> }>({ startToCloseTimeout: '5s' });

export async function floorEmpty(): Promise<number> {
  return Promise.resolve(0);
}

export async function floorOneStep(): Promise<number> {
  return step();
}

export async function floorScanShape(): Promise<number> {
  const pinned = await step();
  const engines = await Promise.all([step(), step(), step()]);
  return pinned + engines.length + (await step());
}
