import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { createDatabase } from '../../server/src/db/database';
import { type ChatReceiver, startChatReceiver } from '../support/chatReceiver';
import { createTestDatabase } from '../support/database';
import { buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type MailServer, startMailServer } from '../support/mailServer';
import { allSent, waitForNotifications } from '../support/notifications';
import { type ServerProcess, spawnServer } from '../support/serverProcess';
import { type WorkerProcess, spawnWorker } from '../support/webhooks';

const processes: Array<ServerProcess | WorkerProcess> = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const running of processes.splice(0)) running.child.kill('SIGKILL');
  for (const close of closers.splice(0).reverse()) await close();
});

describe('notifications survive a server killed between the commit and the send', () => {
  it('sends exactly one email and one chat post per visit after the restart', async () => {
    const mail: MailServer = await startMailServer();
    closers.push(() => mail.close());
    const chat: ChatReceiver = await startChatReceiver();
    closers.push(() => chat.close());
    const databaseUrl = await createTestDatabase();
    const database = createDatabase({ url: databaseUrl, poolMax: 2 });
    closers.push(() => database.close());
    const env = {
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SMTP_URL: mail.url,
      MAIL_FROM: 'Gatehouse <gatehouse@example.com>',
    };
    // Looks for messages once as it starts, then not for a minute: what is committed after that waits.
    const first = await spawnServer({ ...env, NOTIFICATIONS_POLL_MS: '60000' });
    processes.push(first);
    const world = await buildWorld({ database, baseUrl: first.baseUrl });
    const host = await world.api.post<Host>('/v1/hosts', {
      name: 'Grace',
      email: 'grace@example.com',
      siteIds: [world.siteId],
      notifyBy: ['email', 'chat'],
      chatWebhookUrl: chat.slackUrl(),
    });
    expect(host.status, host.text).toBe(201);
    const visits: PersonCheckin[] = [];
    for (const name of ['Ada', 'Bea', 'Cy']) {
      const created = await world.api.post<PersonCheckin>(
        `/v1/sites/${world.siteId}/checkins/people`,
        visitor(name, 'Crash', { hostId: host.body.hostId }),
      );
      expect(created.status).toBe(201);
      visits.push(created.body);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    expect(mail.received).toHaveLength(0);
    expect(chat.posts).toHaveLength(0);

    const second = await spawnServer({ ...env, NOTIFICATIONS_POLL_MS: '50' });
    processes.push(second);
    await mail.waitFor(3, 20_000);
    await chat.waitFor(3, 20_000);
    const api = apiClient(second.baseUrl, world.token);
    for (const visit of visits) await waitForNotifications(api, visit.checkinId, allSent(2));
    // Time for any second copy to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mail.received.map((item) => item.mail.subject).sort()).toEqual(
      ['Ada', 'Bea', 'Cy'].map((name) => expect.stringMatching(new RegExp(`^${name} Crash has arrived at `)) as string),
    );
    expect(chat.posts).toHaveLength(3);
  }, 120_000);

  it('npm run worker sends them for servers that do not (NOTIFICATION_SENDER=false)', async () => {
    const mail: MailServer = await startMailServer();
    closers.push(() => mail.close());
    const databaseUrl = await createTestDatabase();
    const database = createDatabase({ url: databaseUrl, poolMax: 2 });
    closers.push(() => database.close());
    const smtp = { SMTP_URL: mail.url, MAIL_FROM: 'Gatehouse <gatehouse@example.com>' };
    const server = await spawnServer({
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      NOTIFICATION_SENDER: 'false',
      ...smtp,
    });
    processes.push(server);
    const world = await buildWorld({ database, baseUrl: server.baseUrl });
    const host = await world.api.post<Host>('/v1/hosts', {
      name: 'Grace',
      email: 'grace@example.com',
      siteIds: [world.siteId],
    });
    const created = await world.api.post<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people`,
      visitor('Ada', 'Worker', { hostId: host.body.hostId }),
    );
    expect(created.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mail.received).toHaveLength(0);
    processes.push(await spawnWorker({ DATABASE_URL: databaseUrl, NOTIFICATIONS_POLL_MS: '50', ...smtp }));
    const [email] = await mail.waitFor(1, 20_000);
    expect(email?.mail.subject).toMatch(/^Ada Worker has arrived at /);
    await waitForNotifications(world.api, created.body.checkinId, allSent(1));
  }, 90_000);
});
