import { once } from 'node:events';
import http from 'node:http';

/** One post a chat receiver got. */
export interface ChatPost {
  path: string;
  contentType: string | undefined;
  body: unknown;
}

export interface ChatReceiver {
  /** A Slack-style incoming webhook URL on this receiver. */
  slackUrl: (name?: string) => string;
  /** A Teams-style workflow URL on this receiver. */
  teamsUrl: (name?: string) => string;
  posts: ChatPost[];
  /** The status to answer each post with (default 200; Teams workflows answer 202). */
  answer: (post: ChatPost, index: number) => number;
  waitFor: (count: number, timeoutMs?: number) => Promise<ChatPost[]>;
  close: () => Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing in for Slack and Teams: records every JSON post and answers as told. */
export async function startChatReceiver(): Promise<ChatReceiver> {
  const posts: ChatPost[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const post: ChatPost = {
        path: request.url ?? '/',
        contentType: request.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      };
      posts.push(post);
      response.writeHead(receiver.answer(post, posts.length - 1), { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const receiver: ChatReceiver = {
    slackUrl: (name = 'x') => `http://127.0.0.1:${port}/services/T000/B000/${name}`,
    teamsUrl: (name = 'x') => `http://127.0.0.1:${port}/workflows/${name}/triggers/manual/paths/invoke`,
    posts,
    answer: () => 200,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (posts.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} chat posts, got ${posts.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return posts;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
