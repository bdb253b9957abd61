import { describe, expect, it } from 'vitest';
import { serverForFile } from '../support/serverAndWorld';

interface Document {
  servers: Array<{ url: string }>;
  info: { contact: { url?: string } };
}

/** The document as read with a forged Host header: what a cache or a victim's browser would be handed. */
async function readWithHost(baseUrl: string, host: string): Promise<Document> {
  const { request } = await import('node:http');
  const url = new URL('/v1/openapi.json', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Host: host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as Document));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v1/openapi.json without PUBLIC_URL', () => {
  const file = serverForFile();

  it('never echoes the Host header: its only server is the relative /v1', async () => {
    const doc = await readWithHost(file.server.baseUrl, 'evil.example');
    expect(doc.servers.map((server) => server.url)).toEqual(['/v1']);
    expect(JSON.stringify(doc)).not.toContain('evil.example');
  });
});

describe('GET /v1/openapi.json with PUBLIC_URL', () => {
  const file = serverForFile({ PUBLIC_URL: 'https://gate.example.com' });

  it('names PUBLIC_URL first, whatever Host the request came with', async () => {
    const doc = await readWithHost(file.server.baseUrl, 'evil.example');
    expect(doc.servers.map((server) => server.url)).toEqual(['https://gate.example.com/v1', '/v1']);
    expect(doc.info.contact.url).toBe('https://gate.example.com/docs');
    expect(JSON.stringify(doc)).not.toContain('evil.example');
  });
});
