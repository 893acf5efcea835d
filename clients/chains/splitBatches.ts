/**
 * JSON-RPC batches larger than a provider takes, sent as several. viem's http transport batches
 * requests issued together by count (`batchSize`), not by size: two dozen simulations that each
 * carry a contract's code in a state override make a body of several megabytes, past what nodes
 * and providers accept (anvil and other axum servers refuse bodies over 2 MiB as an invalid
 * request). This wraps a fetch so that a batch body over `maxBytes` goes out as consecutive
 * smaller batches, sent side by side, whose answers are joined into one batch answer; viem matches
 * them by id. A body that is not a batch, or a batch of one, is sent as it is.
 */
const MAX_BATCH_BYTES = 1_000_000;

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function splitLargeBatches(fetchFn: Fetch, maxBytes = MAX_BATCH_BYTES): Fetch {
  return async (input, init) => {
    const body = init?.body;
    if (typeof body !== 'string' || body.length <= maxBytes || !body.startsWith('['))
      return fetchFn(input, init);
    let requests: unknown;
    try {
      requests = JSON.parse(body);
    } catch {
      return fetchFn(input, init);
    }
    if (!Array.isArray(requests) || requests.length < 2) return fetchFn(input, init);
    const groups: string[][] = [];
    let current: string[] = [];
    let size = 2;
    for (const request of requests) {
      const text = JSON.stringify(request);
      if (current.length > 0 && size + text.length + 1 > maxBytes) {
        groups.push(current);
        current = [];
        size = 2;
      }
      current.push(text);
      size += text.length + 1;
    }
    groups.push(current);
    const responses = await Promise.all(
      groups.map((group) => fetchFn(input, { ...init, body: `[${group.join(',')}]` })),
    );
    // A refusal of any part is the answer: viem reports it as it would for the whole batch.
    const refused = responses.find((response) => !response.ok);
    if (refused) return refused;
    const parts: unknown[] = await Promise.all(responses.map((response) => response.json()));
    const joined = parts.flatMap((part): unknown[] => (Array.isArray(part) ? (part as unknown[]) : [part]));
    return new Response(JSON.stringify(joined), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}
