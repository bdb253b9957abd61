import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Language, languageFacts, languages } from '../../shared/src/messages/languages';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { seriousViolations } from '../support/axe';
import { browserAvailable } from '../support/browser';
import { type KioskTestSite, kioskSite } from '../support/factories';
import { type KioskWeb, kioskBrowserHooks, openKioskPage, screenshot } from '../support/kioskWeb';
import type { TestServer } from '../support/testServer';
import { VISITOR_SIZES, visitorLayoutProblems } from '../support/visitorLayout';

/** A kiosk message as the visitor reads it in `language`, tags dropped (`<who>Ada</who>` → "Ada"). */
const said = (language: Language, key: keyof (typeof kioskCatalogs)['en'], name = '') =>
  (kioskCatalogs[language] ?? kioskCatalogs.en)[key].replace(/<\/?\w+>/g, '').replace('{name}', name);

describe.skipIf(!browserAvailable())('the kiosk in six languages, in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  let web: KioskWeb;
  kioskBrowserHooks((started) => ({ server, browser, web } = started));

  const open = (site: KioskTestSite) =>
    openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
    });
  const page = { lang: (p: Page) => p.evaluate(() => [document.documentElement.lang, document.documentElement.dir]) };
  // The button says "Language" in English too, after the kiosk's own word for it.
  const languageButton = (p: Page) => p.getByRole('button', { name: /Language$/ });
  const choose = async (p: Page, language: Language) => {
    await languageButton(p).click();
    await p.getByRole('button', { name: languageFacts[language].ownName, exact: true }).click();
    await p.getByRole('heading', { name: said(language, 'home.title') }).waitFor();
  };
  const home = (p: Page, language: Language) => p.getByRole('heading', { name: said(language, 'home.title') });

  it('switches to each language and back, Arabic right to left and mirrored, with no serious axe finding', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { page: p } = await open(site);
    await home(p, 'en').waitFor();
    expect(await page.lang(p)).toEqual(['en', 'ltr']);
    // A visitor may zoom in to read: the page does not lock pinch-zoom.
    const viewport = await p.locator('meta[name="viewport"]').getAttribute('content');
    expect(viewport).toContain('width=device-width');
    expect(viewport).not.toMatch(/maximum-scale|user-scalable/);
    // The list offers each language in its own name, marked as that language.
    await languageButton(p).click();
    const list = p.getByRole('list', { name: said('en', 'language.list') });
    expect(await list.getByRole('button').allInnerTexts()).toEqual(
      languages.map((code) => languageFacts[code].ownName),
    );
    expect(await list.getByRole('button', { name: 'العربية' }).getAttribute('lang')).toBe('ar');
    expect(await seriousViolations(p)).toEqual([]);
    await p.keyboard.press('Escape');
    const englishBox = await languageButton(p).boundingBox();

    for (const language of languages) {
      await choose(p, language);
      const { tag, dir } = languageFacts[language];
      expect(await page.lang(p), language).toEqual([tag, dir]);
      await p.getByRole('button', { name: said(language, 'home.checkIn'), exact: true }).waitFor();
      expect(await seriousViolations(p), `${language} home`).toEqual([]);
      // The check-in form, and Find your name, in the same language.
      await p.getByRole('button', { name: said(language, 'home.checkIn'), exact: true }).click();
      await p.getByLabel(said(language, 'field.firstName'), { exact: true }).waitFor();
      expect(await seriousViolations(p), `${language} form`).toEqual([]);
      await p.getByRole('button', { name: said(language, 'form.back'), exact: true }).click();
      await p.getByRole('button', { name: said(language, 'home.checkOut'), exact: true }).click();
      await p.getByLabel(said(language, 'find.label'), { exact: true }).waitFor();
      expect(await seriousViolations(p), `${language} find your name`).toEqual([]);
      await p.getByRole('button', { name: said(language, 'find.back'), exact: true }).click();
      await home(p, language).waitFor();
    }

    // Arabic (the last chosen) mirrors the screen: the Language button moves to the other side.
    expect(await page.lang(p)).toEqual(['ar', 'rtl']);
    const arabicBox = await languageButton(p).boundingBox();
    const width = p.viewportSize()?.width ?? 0;
    expect(englishBox && arabicBox).toBeTruthy();
    if (englishBox && arabicBox)
      expect(Math.abs(arabicBox.x - (width - englishBox.x - englishBox.width))).toBeLessThan(2);
    await screenshot(p, 'kiosk-ar-home');
    await choose(p, 'en');
    expect(await page.lang(p)).toEqual(['en', 'ltr']);
  });

  it('the staff screens and the PIN prompt in an Arabic kiosk, and the gate, pass axe; staff screens are English', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { page: p } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: site.kioskToken,
      siteId: site.siteId,
      mode: 'visitor',
      pin: '2468',
    });
    await choose(p, 'ar');
    const tab = (key: 'shell.rollCall' | 'shell.needsAttention' | 'shell.settings') =>
      p.getByRole('button', { name: said('ar', key), exact: true });
    // Locked behind the PIN: the prompt is the visitor's language (anyone may meet it).
    await tab('shell.settings').click();
    const pin = p.getByLabel(said('ar', 'pin.label'), { exact: true });
    await pin.fill('1111');
    await p.getByRole('button', { name: said('ar', 'pin.unlock'), exact: true }).click();
    await p.getByText(said('ar', 'pin.wrong')).waitFor();
    expect(await seriousViolations(p), 'PIN prompt').toEqual([]);
    await pin.fill('2468');
    await p.getByRole('button', { name: said('ar', 'pin.unlock'), exact: true }).click();
    // Settings, once unlocked, is staff's: English, and marked so inside the Arabic page.
    const token = p.getByLabel('Kiosk token');
    await token.waitFor();
    expect(await token.evaluate((element) => element.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    expect(await seriousViolations(p), 'Settings').toEqual([]);
    await tab('shell.rollCall').click();
    await p.getByLabel(said('ar', 'pin.label'), { exact: true }).fill('2468');
    await p.getByRole('button', { name: said('ar', 'pin.unlock'), exact: true }).click();
    await p.getByRole('heading', { name: 'Roll call' }).waitFor();
    expect(await seriousViolations(p), 'Roll call').toEqual([]);
    await tab('shell.needsAttention').click();
    await p.getByLabel(said('ar', 'pin.label'), { exact: true }).fill('2468');
    await p.getByRole('button', { name: said('ar', 'pin.unlock'), exact: true }).click();
    await p.getByRole('heading', { name: 'Needs attention' }).waitFor();
    expect(await seriousViolations(p), 'Needs attention').toEqual([]);

    const gateSite = await kioskSite(server, 'Gate', 'gate');
    const { page: gate } = await openKioskPage(browser, web, {
      serverUrl: server.baseUrl,
      token: gateSite.kioskToken,
      siteId: gateSite.siteId,
      mode: 'gate',
    });
    await gate.getByLabel('License plate').waitFor();
    expect(await gate.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'en',
      'ltr',
    ]);
    expect(await seriousViolations(gate), 'gate').toEqual([]);
  });

  it('Arabic and German fit every size with nothing clipped or overlapping', async () => {
    const site = await kioskSite(server, 'مقر الشركة الرئيسي');
    const { page: p } = await open(site);
    for (const language of ['ar', 'de'] as const) {
      await choose(p, language);
      for (const size of VISITOR_SIZES) {
        await p.setViewportSize(size);
        expect(await visitorLayoutProblems(p), `${language} home ${size.width}×${size.height}`).toEqual([]);
      }
      await p.getByRole('button', { name: said(language, 'home.checkIn'), exact: true }).click();
      await p.getByLabel(said(language, 'field.firstName'), { exact: true }).fill('Ada');
      // Submitted empty last name: the form asks for it in the visitor's language, and keeps the first name.
      await p.getByRole('button', { name: said(language, 'form.submit'), exact: true }).click();
      await p.getByText(said(language, 'ask.lastName')).waitFor();
      for (const size of VISITOR_SIZES) {
        await p.setViewportSize(size);
        expect(await visitorLayoutProblems(p), `${language} form ${size.width}×${size.height}`).toEqual([]);
      }
      await p.setViewportSize(VISITOR_SIZES[0]);
      if (language === 'ar') await screenshot(p, 'kiosk-ar-form');
      expect(await p.getByLabel(said(language, 'field.firstName'), { exact: true }).inputValue()).toBe('Ada');
      expect(await seriousViolations(p), `${language} form with an error`).toEqual([]);
      await p.getByRole('button', { name: said(language, 'form.back'), exact: true }).click();
    }
  });

  it('a full check-in in German and in Arabic, each visit back to the site language when it ends', async () => {
    const site = await kioskSite(server, 'Headquarters');
    const { page: p } = await open(site);
    // The site speaks French by default (set after pairing, read when the kiosk opens): each visit ends in
    // French, not in English.
    expect((await site.api.patch(`/v1/sites/${site.siteId}`, { defaultLanguage: 'fr' })).status).toBe(200);
    await p.reload();
    await home(p, 'fr').waitFor();
    expect(await page.lang(p)).toEqual(['fr', 'ltr']);

    const visits: Array<[Language, string, string]> = [
      ['de', 'Jürgen', 'Größe'],
      ['ar', 'ليلى', 'حداد'],
    ];
    for (const [language, firstName, lastName] of visits) {
      await choose(p, language);
      await p.getByRole('button', { name: said(language, 'home.checkIn'), exact: true }).click();
      await p.getByLabel(said(language, 'field.firstName'), { exact: true }).fill(firstName);
      await p.getByLabel(said(language, 'field.lastName'), { exact: true }).fill(lastName);
      await p.getByRole('button', { name: said(language, 'form.submit'), exact: true }).click();
      await p.getByText(said(language, 'done.welcome', firstName)).waitFor();
      expect(await seriousViolations(p), `${language} welcome`).toEqual([]);
      if (language === 'ar') await screenshot(p, 'kiosk-ar-welcome');
      await p.getByRole('button', { name: said(language, 'done.done'), exact: true }).click();
      await home(p, 'fr').waitFor();
      expect(await page.lang(p)).toEqual(['fr', 'ltr']);
    }

    // Checked in on the server in the language each read the form in (the badge is printed in it).
    await expect
      .poll(async () => {
        const answer = await site.api.get<{ data: PersonCheckin[] }>(`/v1/sites/${site.siteId}/checkins/people`);
        return answer.body.data.map((visit) => `${visit.person.firstName} ${visit.language}`).sort();
      })
      .toEqual(['Jürgen de', 'ليلى ar'].sort());

    // And out again in Arabic, through Find your name.
    await choose(p, 'ar');
    await p.getByRole('button', { name: said('ar', 'home.checkOut'), exact: true }).click();
    await p.getByLabel(said('ar', 'find.label'), { exact: true }).fill('ليلى');
    await p.getByRole('button', { name: /ليلى/ }).click();
    await p.getByRole('button', { name: said('ar', 'find.doCheckOut'), exact: true }).click();
    await p.getByText(said('ar', 'done.checkedOut', 'ليلى')).waitFor();
    await p.getByRole('button', { name: said('ar', 'done.done'), exact: true }).click();
    await home(p, 'fr').waitFor();
  });
});
