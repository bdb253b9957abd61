import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { visitCatalogs } from '../../shared/src/messages/visit';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { seriousViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { consoleBrowserHooks, consoleScreenshot, noSidewaysScroll } from '../support/consoleWeb';
import { type World, buildWorld } from '../support/factories';
import type { TestServer } from '../support/testServer';
import { builtVisitPage } from '../support/visitBuild';

// The visitor's phone speaks the phone's language (docs/languages.md, The visitor's phone).
describe.skipIf(!browserAvailable())('the visitor’s phone in its own language', () => {
  let server: TestServer;
  let browser: Browser;
  let world: World;
  let code: string;

  beforeAll(async () => {
    await builtVisitPage();
  }, 180_000);
  consoleBrowserHooks((started) => ({ server, browser } = started));
  beforeAll(async () => {
    world = await buildWorld(server);
    code = (await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.visit.code;
  });

  /** A phone whose settings prefer `locale`. */
  const phone = async (locale: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, locale });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('visit page error:', error.message));
    await page.goto(`${server.baseUrl}/visit/${code}`);
    return page;
  };
  const langOf = (page: Page) => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);

  it('an Arabic phone reads the page right to left in Arabic, a German one in German, and checks in', async () => {
    const visits: Array<[string, 'ar' | 'de', string, string, string, string]> = [
      ['ar-EG', 'ar', 'الاسم الأول', 'اسم العائلة', 'ليلى', 'rtl'],
      ['de-CH', 'de', 'Vorname', 'Nachname', 'Jürgen', 'ltr'],
    ];
    for (const [locale, language, first, last, name, dir] of visits) {
      const words = visitCatalogs[language];
      expect(words).toBeDefined();
      const page = await phone(locale);
      const checkIn = page.getByRole('button', { name: words?.checkIn, exact: true });
      await checkIn.waitFor();
      expect(await langOf(page)).toEqual([language, dir]);
      await page.getByLabel(first).fill(name);
      // Left empty, the last name is asked for; the first name stays.
      await checkIn.click();
      await page.getByText(words?.fixBelow ?? '').waitFor();
      // Said in the phone's language, beside the field (the kiosk's sentence for it).
      await page
        .getByText(language === 'ar' ? 'يرجى إدخال اسم عائلتك.' : 'Bitte geben Sie Ihren Nachnamen ein.')
        .waitFor();
      expect(await seriousViolations(page), `${language} form`).toEqual([]);
      expect(await noSidewaysScroll(page)).toBe(true);
      if (language === 'ar') await consoleScreenshot(page, 'visit-ar-form');
      await page.getByLabel(last).fill('Haddad');
      await checkIn.click();
      await page.getByRole('heading', { name: words?.welcome.replace('{name}', name) }).waitFor();
      await page.getByText(words?.showReception ?? '').waitFor();
      // The check-in records the language the phone showed (so the badge is printed in it).
      const recorded = await world.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${world.siteId}/checkins/people`);
      expect(recorded.body.data.find((visit) => visit.person.firstName === name)?.language).toBe(language);
      expect(await seriousViolations(page), `${language} welcome`).toEqual([]);
      expect(await noSidewaysScroll(page)).toBe(true);
      if (language === 'ar') await consoleScreenshot(page, 'visit-ar-welcome');
      await page.getByRole('button', { name: words?.checkOut, exact: true }).click();
      await page.getByRole('heading', { name: words?.checkedOutTitle }).waitFor();
      await page.context().close();
    }
  });

  it('a phone in a language Gatehouse does not speak reads English', async () => {
    const page = await phone('pt-BR');
    await page.getByRole('button', { name: 'Check in', exact: true }).waitFor();
    expect(await langOf(page)).toEqual(['en', 'ltr']);
    await page.getByLabel('First name').waitFor();
    await page.context().close();
  });
});
