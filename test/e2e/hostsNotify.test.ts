import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../shared/src/schemas/hosts';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { NotificationSender } from '../../server/src/jobs/notificationSender';
import { seriousViolations } from '../support/axe';
import { browserAvailable, launchChromium } from '../support/browser';
import { builtConsole } from '../support/consoleBuild';
import { consolePage, consoleScreenshot, signIn } from '../support/consoleWeb';
import { type World, buildToken, buildWorld } from '../support/factories';
import { type KioskWeb, builtKiosk, kioskWebAt } from '../support/kioskBuild';
import { openKioskPage, screenshot } from '../support/kioskWeb';
import { type MailServer, startMailServer } from '../support/mailServer';
import { startTestNotifier } from '../support/notifications';
import { buildStaffUser } from '../support/staff';
import { type TestServer, startTestServer } from '../support/testServer';

describe.skipIf(!browserAvailable())('a kiosk visitor picks their host; the host is told; the console says so', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  let mail: MailServer;
  let notifier: NotificationSender;
  let world: World;

  beforeAll(async () => {
    await builtConsole();
    mail = await startMailServer();
    [server, browser] = await Promise.all([
      startTestServer({
        RATE_LIMIT_PER_MINUTE: '1000000',
        SIGNIN_FAILURES_PER_ADDRESS: '1000',
        SMTP_URL: mail.url,
        MAIL_FROM: 'Gatehouse <gatehouse@example.com>',
      }),
      launchChromium(),
      builtKiosk(),
    ]);
    web = kioskWebAt(server);
    notifier = startTestNotifier(server, { smtpUrl: mail.url });
    world = await buildWorld(server);
  }, 180_000);
  afterAll(async () => {
    for (const line of server?.logs ?? [])
      if (line.level === 'error') console.error('server error:', line.message, JSON.stringify(line.fields));
    await notifier?.stop();
    await browser?.close();
    await server?.close();
    await mail?.close();
  });

  async function hostForm(requiresApproval: boolean) {
    const put = await world.api.put(`/v1/sites/${world.siteId}/checkins/people/config`, {
      requiresApproval,
      fields: [
        { name: 'firstName', label: 'First name', type: 'text', required: true },
        { name: 'lastName', label: 'Last name', type: 'text', required: true },
        { name: 'company', label: 'Company', type: 'text', required: false },
        { name: 'hostName', label: 'Who are you visiting?', type: 'host', required: true },
      ],
    });
    expect(put.status, put.text).toBe(200);
  }

  it('checks in at the kiosk with a host chosen from the list, and the console shows "Host told"', async () => {
    for (const name of ['Grace Hopper', 'Alan Turing', 'Grete Weiss']) {
      const email = `${name.split(' ')[0]?.toLowerCase()}@example.com`;
      const host = await world.api.post<Host>('/v1/hosts', { name, email, siteIds: [world.siteId] });
      expect(host.status, host.text).toBe(201);
    }
    await hostForm(false);
    const kiosk = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      channel: 'KIOSK',
      mode: 'visitor',
    });
    const { context, page } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: kiosk.token,
      siteId: world.siteId,
      mode: 'visitor',
    });
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Company').fill('ACME');
    const picker = page.getByRole('combobox', { name: 'Who are you visiting?' });
    await picker.fill('gr');
    const list = page.getByRole('listbox', { name: 'Hosts' });
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['Grace Hopper', 'Grete Weiss']);
    expect(await picker.getAttribute('aria-expanded')).toBe('true');
    // Arrow down to the second, then Enter chooses it; typing narrows to one.
    await picker.fill('grace');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['Grace Hopper']);
    await screenshot(page, 'kiosk-host-picker');
    await list.getByRole('option', { name: 'Grace Hopper' }).click();
    expect(await picker.inputValue()).toBe('Grace Hopper');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Welcome, Ada').waitFor();

    const [email] = await mail.waitFor(1, 20_000);
    expect(email?.to).toEqual(['grace@example.com']);
    expect(email?.mail.subject).toMatch(/^Ada Lovelace from ACME has arrived at /);
    const visits = await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`);
    expect(visits.body.data[0]).toMatchObject({ hostName: 'Grace Hopper', entry: { source: 'KIOSK' } });
    await context.close();

    const manager = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'manager',
      siteIds: [world.siteId],
    });
    const console = await consolePage(browser);
    await signIn(console.page, server.baseUrl, manager.email, manager.password);
    const row = console.page
      .getByRole('row')
      .filter({ has: console.page.getByRole('rowheader', { name: 'Ada Lovelace' }) });
    await expect
      .poll(() => row.getByRole('cell').nth(1).textContent(), { timeout: 10_000 })
      .toMatch(/^Grace HopperHost told \d{1,2}:\d\d( [AP]M)? by email$/);
    await consoleScreenshot(console.page, 'console-host-told');
    await console.context.close();
  }, 90_000);

  it('the Hosts page adds and imports hosts; a waiting visitor is approved from the email’s link', async () => {
    const owner = await buildStaffUser(server, { accountId: world.accountId, role: 'owner' });
    const { context, page } = await consolePage(browser);
    await signIn(page, server.baseUrl, owner.email, owner.password);
    await page.getByRole('navigation').getByRole('link', { name: 'Hosts', exact: true }).click();
    await page.getByRole('heading', { name: 'Hosts' }).waitFor();
    await page.getByRole('button', { name: 'Add a host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a host' });
    await dialog.getByLabel('Name', { exact: true }).fill('Marie Curie');
    await dialog.getByLabel('Email', { exact: true }).fill('marie@example.com');
    await dialog.getByRole('group', { name: 'Sites' }).getByLabel('All sites').check();
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('rowheader', { name: 'Marie Curie' }).waitFor();

    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'hosts-')), 'hosts.csv');
    await fs.writeFile(file, `name,email,phone,sites\nNiels Bohr,niels@example.com,,${world.siteId}\nBad,,,1\n`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importing = page.getByRole('dialog', { name: 'Import hosts' });
    await importing.getByLabel('CSV file').setInputFiles(file);
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.getByRole('status').getByText('1 created, 0 updated, 1 not imported:').waitFor();
    expect(await importing.getByRole('listitem').allTextContents()).toEqual(['Line 3: email is empty']);
    await importing.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('rowheader', { name: 'Niels Bohr' }).waitFor();
    await consoleScreenshot(page, 'console-hosts');

    await hostForm(true);
    const marie = (await world.api.get<{ data: Host[] }>('/v1/hosts?q=marie')).body.data[0];
    const waiting = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName: 'Pierre', lastName: 'Waits' },
      hostId: marie?.hostId,
    });
    expect(waiting.body.status).toBe('PENDING');
    const message = (await mail.waitFor(2, 20_000)).find((item) => item.to.includes('marie@example.com'));
    const link = /Approve: (http:\/\/\S+)/.exec(message?.mail.text ?? '')?.[1] ?? '';
    expect(link).toContain('/console/decide#');

    // The Approvals page says the host was asked.
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^Approvals/ })
      .click();
    await expect
      .poll(() => page.getByRole('listitem').filter({ hasText: 'Pierre Waits' }).textContent(), { timeout: 10_000 })
      .toMatch(/Host told \d{1,2}:\d\d( [AP]M)? by email/);

    // The host, signed in nowhere, opens the link: asked to confirm, then decides once.
    const host = await browser.newContext();
    const hostPage = await host.newPage();
    await hostPage.goto(link);
    await hostPage.getByRole('heading', { name: 'Let Pierre Waits in?' }).waitFor();
    await hostPage.getByRole('button', { name: 'Approve' }).click();
    await hostPage.getByRole('status').getByText('Pierre Waits is let in.').waitFor();
    const read = await world.api.get<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people/${waiting.body.checkinId}`,
    );
    expect(read.body).toMatchObject({ status: 'IN', decidedBy: { type: 'host', name: 'Marie Curie' } });
    // Opened again (a new tab from the email): used up.
    const again = await host.newPage();
    await again.goto(link);
    await again.getByText('This link is unknown, used or expired.', { exact: false }).waitFor();
    await host.close();
    await context.close();
  }, 90_000);

  /** A waiting visitor for a new host who reads `language`; the link of `label` in the host's email. */
  async function linkFor(host: { name: string; email: string; language: string }, visitor: string, label: string) {
    const added = await world.api.post<Host>('/v1/hosts', { ...host, siteIds: [world.siteId] });
    expect(added.status, added.text).toBe(201);
    const [firstName, lastName] = visitor.split(' ');
    const waiting = await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, {
      person: { firstName, lastName, company: 'ACME' },
      hostId: added.body.hostId,
    });
    expect(waiting.body.status).toBe('PENDING');
    await expect.poll(() => mail.received.some((item) => item.to.includes(host.email)), { timeout: 20_000 }).toBe(true);
    const text = mail.received.find((item) => item.to.includes(host.email))?.mail.text ?? '';
    const link = new RegExp(`${label}: (http://\\S+)`).exec(text)?.[1] ?? '';
    expect(link).toContain('/console/decide#');
    return { link, checkinId: waiting.body.checkinId };
  }

  it('the link’s page speaks the host’s language, whatever the browser’s: German, and Arabic right to left', async () => {
    await hostForm(true);
    // An English browser: the page follows the host's language, which the preview says.
    const browsing = await browser.newContext({ locale: 'en-US' });

    const german = await linkFor(
      { name: 'Grete Krause', email: 'grete.krause@example.com', language: 'de' },
      'Hans Wartet',
      'Freigeben',
    );
    const page = await browsing.newPage();
    await page.goto(german.link);
    await page.getByRole('heading', { name: 'Hans Wartet einlassen?' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'de',
      'ltr',
    ]);
    // The visit's time as German writes it ("So., 29. Nov., 07:41 MEZ"), on the site's clock.
    expect(await page.getByRole('main').getByRole('paragraph').first().textContent()).toMatch(
      /^Hans Wartet \(ACME\) ist am \p{L}{2}\., \d{1,2}\. \p{L}+\.?,? \d\d:\d\d \S+ am Standort .+ eingetroffen, möchte zu Grete Krause und wartet auf Einlass\.$/u,
    );
    await page.getByRole('button', { name: 'Freigeben' }).click();
    await page.getByRole('status').getByText('Hans Wartet wird eingelassen.', { exact: false }).waitFor();
    const approved = await world.api.get<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people/${german.checkinId}`,
    );
    expect(approved.body).toMatchObject({ status: 'IN', decidedBy: { type: 'host', name: 'Grete Krause' } });

    const arabic = await linkFor(
      { name: 'Layla Haddad', email: 'layla@example.com', language: 'ar' },
      'Omar Waits',
      'رفض',
    );
    await page.goto(arabic.link);
    await page.getByRole('heading', { name: 'رفض دخول Omar Waits؟' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    await page.getByLabel('السبب').fill('Wrong day');
    expect(await seriousViolations(page), 'Arabic decision page').toEqual([]);
    await page.getByRole('button', { name: 'رفض' }).click();
    await page.getByRole('status').getByText('تم رفض دخول Omar Waits.', { exact: false }).waitFor();
    expect(await seriousViolations(page), 'Arabic decision made').toEqual([]);
    const denied = await world.api.get<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people/${arabic.checkinId}`);
    expect(denied.body.status).toBe('STOP');
    await browsing.close();

    // A link the server does not know has no host to follow: the page speaks the browser's language.
    const germanBrowser = await browser.newContext({ locale: 'de-DE' });
    const unknown = await germanBrowser.newPage();
    await unknown.goto(`${server.baseUrl}/console/decide#${'A'.repeat(43)}`);
    await unknown.getByRole('heading', { name: 'Entscheidung über einen Besuch' }).waitFor();
    await unknown.getByRole('alert').getByText('Dieser Link ist unbekannt', { exact: false }).waitFor();
    expect(await unknown.evaluate(() => document.documentElement.lang)).toBe('de');
    await germanBrowser.close();
  }, 90_000);
});
