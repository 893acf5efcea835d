import type { Db } from 'mongodb';
import { NewsItem } from './core/schema.ts';
import { normalAddress } from './feeds/link.ts';

const COLLECTION = 'news_items';

/** News items, one document per item id (deduplicated across feeds), newest first on read. */
export class NewsStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Stores items not seen before and returns how many were new. An item seen before keeps what
   * it said, and gains the links found this time (a token scanned since links its earlier news).
   */
  async add(items: readonly NewsItem[]): Promise<number> {
    return (await this.addNew(items)).length;
  }

  /** As `add`, answering the items that were new. */
  async addNew(items: readonly NewsItem[]): Promise<NewsItem[]> {
    if (items.length === 0) return [];
    const result = await this.#db.collection<NewsItem & { _id: string }>(COLLECTION).bulkWrite(
      items.map(({ entities, ...item }) => ({
        updateOne: {
          filter: { _id: item.id },
          update: { $setOnInsert: item, $addToSet: { entities: { $each: entities } } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    return Object.keys(result.upsertedIds).map((index) => items[Number(index)] as NewsItem);
  }

  /** The latest items linked to a token (by address or symbol) or matching a topic word. */
  async latest(query: {
    address?: string;
    symbol?: string;
    topic?: string;
    limit: number;
  }): Promise<NewsItem[]> {
    const or: Record<string, unknown>[] = [];
    if (query.address) or.push({ 'entities.address': normalAddress(query.address) });
    if (query.symbol) or.push({ 'entities.symbol': query.symbol.toUpperCase() });
    if (query.topic) {
      const escaped = query.topic.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      or.push({ title: { $regex: escaped, $options: 'i' } });
    }
    if (or.length === 0) return [];
    const docs = await this.#db
      .collection<NewsItem & { _id: string }>(COLLECTION)
      .find({ $or: or })
      .sort({ published_at: -1 })
      .limit(query.limit)
      .toArray();
    // An empty list may come back missing: FerretDB drops empty arrays written by $setOnInsert.
    return docs.map(({ _id, ...doc }) => {
      const stored: Partial<NewsItem> = doc;
      return NewsItem.parse({ ...stored, entities: stored.entities ?? [] });
    });
  }
}
