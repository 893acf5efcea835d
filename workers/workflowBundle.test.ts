import { describe, expect, it } from 'vitest';
import * as every from '../workflows/index.ts';
import { poolQueues } from './pools.ts';
import { poolWorkflowsEntry } from './workflowBundle.ts';

describe("each pool's workflow bundle", () => {
  it('holds its pool’s workflows, and every workflow is in exactly one pool', async () => {
    const owners = new Map<string, string[]>();
    for (const queue of poolQueues()) {
      const entry = (await import(poolWorkflowsEntry(queue))) as Record<string, unknown>;
      const names = Object.keys(entry);
      expect(names.length, queue).toBeGreaterThan(0);
      for (const name of names) owners.set(name, [...(owners.get(name) ?? []), queue]);
    }
    expect(Object.fromEntries([...owners].sort())).toEqual(
      Object.fromEntries(
        Object.keys(every)
          .sort()
          .map((name) => [name, owners.get(name)?.length === 1 ? owners.get(name) : ['exactly one pool']]),
      ),
    );
  });
});
