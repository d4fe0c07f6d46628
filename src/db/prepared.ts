import type { Db } from './client.ts';

interface Preparable {
  prepare(name: string): unknown;
}

/**
 * A query that most requests run, built and prepared once per database handle instead of once per
 * call: building a drizzle query costs more CPU than PostgreSQL spends answering these small ones,
 * and a named statement is parsed and planned once per connection. Values go in through
 * `sql.placeholder`; `name` must be unique among the app's prepared statements.
 */
export function preparedStatement<Q extends Preparable>(
  name: string,
  build: (db: Db) => Q,
): (db: Db) => ReturnType<Q['prepare']> {
  const prepared = new WeakMap<Db, ReturnType<Q['prepare']>>();
  return (db) => {
    let statement = prepared.get(db);
    if (statement === undefined) {
      statement = build(db).prepare(name) as ReturnType<Q['prepare']>;
      prepared.set(db, statement);
    }
    return statement;
  };
}
