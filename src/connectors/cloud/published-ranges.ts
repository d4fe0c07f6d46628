import { request, textOf } from '../http/client.ts';
import { answerError } from '../http/json.ts';

/** Azure's weekly ServiceTags file is the largest of the clouds' lists, a few MB. */
const RANGES_ANSWER_BYTES = 32 * 2 ** 20;

/** One cloud's published list of its address ranges, as text (the clouds move them behind redirects). */
export async function publishedRanges(url: string): Promise<string> {
  const answer = await request({
    provider: 'The published ranges',
    url,
    timeoutMs: 60_000,
    maxBytes: RANGES_ANSWER_BYTES,
    redirect: 'follow',
  });
  if (answer.status < 200 || answer.status >= 300)
    throw answerError('The published ranges', answer, undefined);
  return textOf(answer);
}
