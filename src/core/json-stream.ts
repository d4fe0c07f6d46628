/**
 * A JSON object written as it is read: plain values at once, and the large lists (every scan of an
 * account, with their findings and names) one row at a time from paged queries, so an export never
 * holds them all in memory.
 */
export type JsonMember = readonly [key: string, value: unknown | (() => AsyncIterable<unknown>)];

async function* chunks(members: readonly JsonMember[]): AsyncGenerator<string> {
  yield '{';
  for (const [index, [key, value]] of members.entries()) {
    yield `${index ? ',' : ''}${JSON.stringify(key)}:`;
    if (typeof value !== 'function') {
      yield JSON.stringify(value);
      continue;
    }
    yield '[';
    let first = true;
    for await (const row of (value as () => AsyncIterable<unknown>)()) {
      yield `${first ? '' : ','}${JSON.stringify(row)}`;
      first = false;
    }
    yield ']';
  }
  yield '}';
}

/** The object as a byte stream for a Response body. */
export function jsonObjectStream(members: readonly JsonMember[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const source = chunks(members);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

/** Rows read a page at a time: `page(after)` returns the rows after the last one it was given. */
export async function* paged<T>(page: (after: T | undefined) => Promise<T[]>): AsyncGenerator<T> {
  let after: T | undefined;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length === 0) return;
    after = rows.at(-1);
  }
}

export async function* mapRows<T, U>(rows: AsyncIterable<T>, view: (row: T) => U): AsyncGenerator<U> {
  for await (const row of rows) yield view(row);
}
