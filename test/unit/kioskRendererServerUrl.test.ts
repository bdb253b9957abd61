import { describe, expect, it } from 'vitest';
import { apiBaseUrl, createApiClient } from '../../shared/src/client';

/** The URLs a client built on `serverUrl` asks for its sites, answered with an empty page. */
async function sitesUrlFor(serverUrl: string): Promise<string[]> {
  const asked: string[] = [];
  const api = createApiClient({
    baseUrl: serverUrl,
    token: 'ck_test',
    now: () => Date.now(),
    fetch: async (url) => {
      asked.push(url);
      return new Response(JSON.stringify({ data: [], nextCursor: null }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    },
  });
  const outcome = await api.listSites();
  expect(outcome.kind).toBe('ok');
  return asked;
}

describe('the server URL a kiosk is paired with (setup screen, kiosk.json, query string)', () => {
  it('reaches /v1/sites whether the URL is the origin or the API base the server banner prints', async () => {
    for (const serverUrl of [
      'http://127.0.0.1:3000',
      'http://127.0.0.1:3000/',
      'http://127.0.0.1:3000/v1',
      'http://127.0.0.1:3000/v1/',
      ' http://127.0.0.1:3000/v1// ',
    ]) {
      expect(await sitesUrlFor(serverUrl), serverUrl).toEqual(['http://127.0.0.1:3000/v1/sites?limit=200']);
    }
  });

  it('keeps a path prefix in front of the API, and drops only one /v1', () => {
    expect(apiBaseUrl('https://example.com/gatehouse/v1/')).toBe('https://example.com/gatehouse');
    expect(apiBaseUrl('https://example.com/gatehouse')).toBe('https://example.com/gatehouse');
    expect(apiBaseUrl('https://example.com/v1/v1')).toBe('https://example.com/v1');
    expect(apiBaseUrl('https://example.com/v10')).toBe('https://example.com/v10');
  });

  it('never takes a host named v1 for the API path', () => {
    expect(apiBaseUrl('http://v1')).toBe('http://v1');
    expect(apiBaseUrl('http://v1/')).toBe('http://v1');
    expect(apiBaseUrl('http://v1:3000/v1')).toBe('http://v1:3000');
  });
});
