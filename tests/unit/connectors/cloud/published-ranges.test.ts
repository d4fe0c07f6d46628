import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedRanges } from '../../../../src/connectors/cloud/published-ranges.ts';
import { ConnectorError } from '../../../../src/connectors/http/error.ts';

describe("a cloud's published ranges, read from its URL", () => {
  let server: http.Server;
  let url = '';
  const LIST = '{"syncToken":"1","createDate":"2026-11-27-00-00-00","prefixes":[]}';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/ip-ranges.json') {
        // The clouds move their lists; the published URL may answer with a redirect.
        res.writeHead(302, { location: '/2026/ip-ranges.json' });
        return void res.end();
      }
      if (req.url === '/2026/ip-ranges.json') return void res.end(LIST);
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('follows the redirect to the list and gives its text', async () => {
    expect(await publishedRanges(`${url}/ip-ranges.json`)).toBe(LIST);
  });

  it('a missing list is an error saying so', async () => {
    const error = await publishedRanges(`${url}/gone.json`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ failure: 'not-found', status: 404 });
  });
});
