import { type Db, MongoClient } from 'mongodb';
import { currentTracing, traceMongo } from './tracing.ts';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

/**
 * Connects lazily (the driver connects on first use), with short server-selection timeouts so a
 * missing database shows up as a failed health probe rather than a hung request. Vigil only uses
 * what both MongoDB and FerretDB support: no transactions, no change streams.
 */
export function createMongo(uri: string, dbName: string): MongoHandle {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: 2_000,
    connectTimeoutMS: 2_000,
    maxPoolSize: 20,
    appName: 'vigil',
    // Command events feed the store spans when tracing is on (they cost nothing otherwise).
    monitorCommands: currentTracing() !== undefined,
  });
  traceMongo(client);
  const db = client.db(dbName);
  return { client, db, close: () => client.close() };
}
