import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { type KioskWeb, checkInThroughForm, kioskBrowserHooks, openKioskPage, outboxCount } from '../support/kioskWeb';
import { type NetworkFollower, followNetwork } from '../support/networkQuiet';
import type { TestServer } from '../support/testServer';

// Issue #38: the kiosk follows the event stream, so a change made elsewhere reaches its screen at once (its
// timed pull comes every 5 minutes); with the stream cut it works as before and catches up.

describe.skipIf(!browserAvailable())('kiosk in a real browser: live by push', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;

  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  const checkInElsewhere = async (site: KioskTestSite, firstName: string, lastName: string) => {
    const response = await site.api.post<PersonCheckin>(`/v1/sites/${site.siteId}/checkins/people`, {
      person: { firstName, lastName },
    });
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const openRollCall = async (page: Page) => {
    await page.getByRole('button', { name: 'Roll call' }).click();
    await page.getByRole('heading', { name: 'Roll call', exact: true }).waitFor();
  };
  const onSite = (page: Page) => page.getByRole('table', { name: 'On site' }).getByRole('rowheader');
  /** The kiosk's requests by what they ask for, from the moment this is called. */
  const watchRequests = (page: Page) => {
    const seen: string[] = [];
    page.on('request', (request) => seen.push(new URL(request.url()).pathname));
    return {
      count: (ending: string) => seen.filter((path) => path.endsWith(ending)).length,
    };
  };

  it('shows a check-in made elsewhere on the Roll call within seconds, by one small pull the stream asked for', async () => {
    const site = await kioskSite(server, 'Live lobby');
    const { context, page } = await open(site);
    await openRollCall(page);
    // The stream is open, and the kiosk's start-up pulls are over (however late a loaded machine answers them).
    await expect.poll(() => streamsOpened, { timeout: 15_000 }).toBeGreaterThan(0);
    await network.settled();
    const requests = watchRequests(page);

    await checkInElsewhere(site, 'Lena', 'Live');
    await onSite(page).getByText('Live, Lena').waitFor({ timeout: 10_000 });
    expect(requests.count('/checkins/people/changes')).toBeGreaterThanOrEqual(1);
    expect(requests.count('/checkins/people/changes')).toBeLessThanOrEqual(2);
    expect(requests.count('/kiosk/people')).toBe(0);
    await context.close();
  });

  it('with the stream cut it checks in, syncs and catches up with what changed elsewhere', async () => {
    const site = await kioskSite(server, 'Cut lobby');
    const { context, page } = await open(site);
    await expect.poll(() => streamsOpened, { timeout: 15_000 }).toBeGreaterThan(0);
    await openRollCall(page);
    await checkInElsewhere(site, 'Ada', 'Before');
    await onSite(page).getByText('Before, Ada').waitFor({ timeout: 10_000 });

    // The stream is refused from now on, and the link goes down (which ends the open stream).
    await context.route('**/v1/events', (route) => route.abort());
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Home' }).click();
    await checkInThroughForm(page, 'Otto', 'Offline');
    await checkInElsewhere(site, 'Mia', 'Elsewhere');

    await context.setOffline(false);
    // Back online with the stream still refused: the queue goes and the pull brings what changed meanwhile.
    await expect.poll(() => outboxCount(page), { timeout: 15_000 }).toBe(0);
    await openRollCall(page);
    await onSite(page).getByText('Elsewhere, Mia').waitFor({ timeout: 15_000 });
    expect(await onSite(page).allInnerTexts()).toEqual(['Before, Ada', 'Elsewhere, Mia', 'Offline, Otto']);
    const held = await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people?limit=50`);
    expect(held.body.data.map((visit) => visit.person.firstName).sort()).toEqual(['Ada', 'Mia', 'Otto']);
    await context.close();
  });

  let streamsOpened = 0;
  /** The requests of the page `open` opened last, from before it loaded. */
  let network: NetworkFollower;
  async function open(site: KioskTestSite) {
    streamsOpened = 0;
    return openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      beforeLoad: (context) => {
        network = followNetwork(context);
        context.on('response', (response) => {
          if (new URL(response.url()).pathname === '/v1/events' && response.status() === 200) streamsOpened += 1;
        });
        return Promise.resolve();
      },
    });
  }
});
