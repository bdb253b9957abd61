import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { type Language, isLanguage, languageFacts, languages } from '../../shared/src/messages/languages';

// Every catalog of every area (docs/languages.md), found on disk, so an area added later is checked too.
const ROOT = fileURLToPath(new URL('../../shared/src/messages/', import.meta.url));

/** Areas staff read: English only for now (a translation is one more file), the others in every language. */
const STAFF_AREAS = new Set(['console']);

/**
 * Messages a language rightly writes as English does (a word both languages use), by area and language.
 * Anything else equal to English is an untranslated copy.
 */
const SAME_AS_ENGLISH: Record<string, Partial<Record<Language, string[]>>> = {};

type Catalog = Record<string, string>;

const areas = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function catalogsOf(area: string): Partial<Record<Language, Catalog>> {
  const found: Partial<Record<Language, Catalog>> = {};
  for (const file of fs.readdirSync(path.join(ROOT, area))) {
    if (!file.endsWith('.json')) continue;
    const language = file.slice(0, -'.json'.length);
    if (!isLanguage(language)) throw new Error(`${area}/${file}: ${language} is not one of ${languages.join(', ')}`);
    found[language] = JSON.parse(fs.readFileSync(path.join(ROOT, area, file), 'utf8')) as Catalog;
  }
  return found;
}

/**
 * What a message needs from its caller and how it varies: each argument with its kind, each select's
 * options and each tag, nested ones included. Plural options are left out (each language has its own).
 */
function shape(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      into.add(`<${element.value}>`);
      shape(element.children, into);
      continue;
    }
    into.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.select)
      into.add(`${element.value} options ${Object.keys(element.options).sort().join(',')}`);
    if (element.type === TYPE.select || element.type === TYPE.plural)
      for (const option of Object.values(element.options)) shape(option.value, into);
  }
  return into;
}

/** The plural categories each plural of a message gives (exact `=n` options aside). */
function pluralCategories(elements: MessageFormatElement[], into: string[][] = []): string[][] {
  for (const element of elements) {
    if (element.type === TYPE.tag) pluralCategories(element.children, into);
    if (element.type === TYPE.plural)
      into.push(
        Object.keys(element.options)
          .filter((option) => !option.startsWith('='))
          .sort(),
      );
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) pluralCategories(option.value, into);
  }
  return into;
}

const parsed = (message: string) => parse(message, { requiresOtherClause: true });

describe('message catalogs', () => {
  it('are found', () => {
    expect(areas).toContain('kiosk');
  });

  describe.each(areas)('%s', (area) => {
    const catalogs = catalogsOf(area);
    const english = catalogs.en;
    const present = Object.keys(catalogs) as Language[];

    it('has English, and every language unless staff read it', () => {
      expect(english, `${area} has no en.json`).toBeDefined();
      if (!STAFF_AREAS.has(area)) expect(present.sort()).toEqual([...languages].sort());
    });

    it('has the same keys in every language', () => {
      const every = new Set(present.flatMap((language) => Object.keys(catalogs[language] ?? {})));
      for (const language of present) {
        const keys = new Set(Object.keys(catalogs[language] ?? {}));
        const missing = [...every].filter((key) => !keys.has(key));
        expect(missing, `${area}/${language}.json misses keys another catalog has`).toEqual([]);
      }
    });

    it('parses, and each translation needs the same placeholders, options and tags as English', () => {
      for (const language of present) {
        for (const [key, message] of Object.entries(catalogs[language] ?? {})) {
          expect(typeof message, `${area}/${language}: ${key}`).toBe('string');
          const elements = (() => {
            try {
              return parsed(message);
            } catch (error) {
              throw new Error(`${area}/${language}.json ${key} is not ICU MessageFormat: ${String(error)}`);
            }
          })();
          const source = english?.[key];
          if (source === undefined) continue;
          expect([...shape(elements)].sort(), `${area}/${language}.json ${key}`).toEqual(
            [...shape(parsed(source))].sort(),
          );
        }
      }
    });

    it("gives each plural exactly its language's categories", () => {
      for (const language of present) {
        const wanted = new Intl.PluralRules(languageFacts[language].locale).resolvedOptions().pluralCategories;
        for (const [key, message] of Object.entries(catalogs[language] ?? {})) {
          for (const categories of pluralCategories(parsed(message)))
            expect(categories, `${area}/${language}.json ${key}`).toEqual([...wanted].sort());
        }
      }
    });

    it('is translated: no message is an English copy', () => {
      for (const language of present) {
        if (language === 'en') continue;
        const allowed = new Set(SAME_AS_ENGLISH[area]?.[language] ?? []);
        const copies = Object.entries(catalogs[language] ?? {})
          .filter(([key, message]) => message === english?.[key] && !allowed.has(key))
          .map(([key]) => key);
        expect(copies, `${area}/${language}.json copies English`).toEqual([]);
      }
    });
  });
});
