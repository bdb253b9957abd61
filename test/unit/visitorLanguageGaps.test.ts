import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cameraProblem } from '../../kiosk/renderer/camera/cameraWords';
import { HOST_FIELD_LABEL, visitorFieldLabel } from '../../shared/src/messages/fieldLabels';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import { languageFacts, languages } from '../../shared/src/messages/languages';
import { clockTime, dateAndTime, dayAndTime, zonedTime } from '../../shared/src/messages/times';
import { wordsOf } from '../../shared/src/messages/translator';
import type { ConfigField } from '../../shared/src/schemas/sites';

// Issue #37's last English words on visitor screens: the host field's question, the camera viewer's words,
// times as each language writes them, and a language's own name said one way everywhere.

const hostField = (label: string): ConfigField => ({ name: 'hostName', label, type: 'host', required: true });
const english = wordsOf(kioskCatalogs, 'en');

describe('the host field’s default label', () => {
  it('is the question the console gives a new host field, said in every language', () => {
    expect(HOST_FIELD_LABEL).toBe('Who are you visiting?');
    const said = languages.map((language) =>
      visitorFieldLabel(wordsOf(kioskCatalogs, language), hostField(HOST_FIELD_LABEL)),
    );
    expect(said).toEqual(languages.map((language) => wordsOf(kioskCatalogs, language).t('field.hostQuestion')));
    expect(new Set(said).size).toBe(languages.length);
    expect(visitorFieldLabel(wordsOf(kioskCatalogs, 'de'), hostField('Who are you visiting?  '))).toBe(
      'Wen besuchen Sie?',
    );
  });

  it('keeps the standard "Host" as it was, and a label the site typed as typed', () => {
    expect(visitorFieldLabel(wordsOf(kioskCatalogs, 'fr'), hostField('Host'))).toBe('Personne visitée');
    for (const typed of ['Who are you here to see?', 'Wen besuchen Sie heute?', 'Host / Gastgeber']) {
      for (const language of languages)
        expect(visitorFieldLabel(wordsOf(kioskCatalogs, language), hostField(typed))).toBe(typed);
    }
    // The question is the host field's alone: another standard field labelled so is the site's words.
    const company: ConfigField = { name: 'company', label: HOST_FIELD_LABEL, type: 'text', required: false };
    expect(visitorFieldLabel(wordsOf(kioskCatalogs, 'zh'), company)).toBe(HOST_FIELD_LABEL);
  });
});

describe('the camera viewer’s words', () => {
  it('names each reason the camera did not start by a catalog word every language has', () => {
    const reasons = ['NotAllowedError', 'SecurityError', 'NotFoundError', 'NotReadableError', 'TypeError'].map((name) =>
      cameraProblem(new DOMException('no', name)),
    );
    expect(reasons).toEqual([
      'camera.notAllowed',
      'camera.notAllowed',
      'camera.notFound',
      'camera.busy',
      'camera.failed',
    ]);
    for (const key of [...reasons, 'camera.readerFailed', 'camera.stop', 'camera.group', 'camera.view'] as const) {
      for (const language of languages.filter((code) => code !== 'en'))
        expect(wordsOf(kioskCatalogs, language).t(key), `${language} ${key}`).not.toBe(english.t(key));
    }
  });
});

describe('times as each language writes them', () => {
  const at = new Date('2026-11-24T09:05:00Z');
  const locale = (code: 'en' | 'zh' | 'ar' | 'de') => languageFacts[code].locale;

  it('Chinese puts a space between the day and the time, and the zone after the time', () => {
    expect(dayAndTime(locale('zh'), at, 'UTC')).toBe('周二 09:05');
    expect(dateAndTime(locale('zh'), at, 'UTC')).toBe('11月24日 09:05');
    expect(zonedTime(locale('zh'), at, 'Asia/Shanghai')).toBe('11月24日周二 17:05 GMT+8');
  });

  it('Arabic writes its 12-hour clock without a leading zero', () => {
    expect(clockTime(locale('ar'), at, 'UTC')).toBe('9:05 ص');
    expect(dayAndTime(locale('ar'), at, 'UTC')).toBe('الثلاثاء 9:05 ص');
  });

  it('24-hour clocks keep two-digit hours, as before', () => {
    expect(clockTime(locale('en'), at, 'UTC')).toBe('09:05');
    expect(dayAndTime(locale('en'), at, 'UTC')).toBe('Tue 09:05');
    expect(dateAndTime(locale('de'), at, 'UTC')).toBe('24. Nov., 09:05');
    expect(zonedTime(locale('en'), at, 'Europe/Berlin')).toBe('Tue 24 Nov, 10:05 CET');
  });
});

describe('a language’s own name', () => {
  const ROOT = fileURLToPath(new URL('../../', import.meta.url));
  const sources = (folder: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/u.test(file))
      .map((file) => path.join(folder, file));

  it('is written only in languages.ts: the host list and the kiosk’s Language list say it alike', () => {
    const written = ['console', 'kiosk/renderer', 'visit', 'server/src'].flatMap(sources).flatMap((file) => {
      // Its words, not its comments (which may quote a name to say why).
      const text = fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//gu, '')
        .replace(/^\s*\/\/.*$/gmu, '');
      return languages
        .map((code) => languageFacts[code].ownName.split(' ')[0] ?? '')
        .filter((name) => [`'${name}`, `"${name}`, `>${name}<`].some((quoted) => text.includes(quoted)))
        .map((name) => `${file}: ${name}`);
    });
    expect(written).toEqual([]);
  });
});
