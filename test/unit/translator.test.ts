import { describe, expect, it } from 'vitest';
import { kioskCatalogs } from '../../shared/src/messages/kiosk';
import { languageOfTag } from '../../shared/src/messages/languages';
import { wordsOf } from '../../shared/src/messages/translator';

describe('the words of a catalog in a language', () => {
  it("fills placeholders and picks the language's plural form", () => {
    const english = wordsOf(kioskCatalogs, 'en');
    expect(english.t('status.attention', { count: 1 })).toBe('1 needs attention');
    expect(english.t('status.attention', { count: 3 })).toBe('3 need attention');
    const arabic = wordsOf(kioskCatalogs, 'ar');
    expect(arabic.t('status.attention', { count: 2 })).toBe('إجراءان بحاجة إلى مراجعة');
    expect(arabic.t('status.attention', { count: 11 })).toContain('إجراءً');
    expect(arabic.dir).toBe('rtl');
    expect(wordsOf(kioskCatalogs, 'zh').tag).toBe('zh-Hans');
  });

  it('renders the tags of a message with the functions given', () => {
    const german = wordsOf(kioskCatalogs, 'de');
    const parts = german.rich<{ bold: string }>('done.welcome', {
      name: 'Ada',
      who: (chunks) => ({ bold: chunks.filter((chunk) => typeof chunk === 'string').join('') }),
    });
    expect(parts).toEqual(['Willkommen, ', { bold: 'Ada' }]);
    // Each language puts the name where its sentence wants it.
    const chinese = wordsOf(kioskCatalogs, 'zh').rich<string>('done.breakStarted', {
      name: 'Ada',
      who: (chunks) => `[${chunks.join('')}]`,
    });
    expect(chinese.join('')).toBe('[Ada]，祝您休息愉快');
  });

  it('speaks English where an area has no catalog for the language', () => {
    const englishOnly = { en: { hello: 'Hello {name}' } } as const;
    const words = wordsOf(englishOnly, 'fr');
    expect(words.language).toBe('en');
    expect(words.t('hello', { name: 'Ada' })).toBe('Hello Ada');
  });

  it('reads a language from a BCP 47 tag; Traditional Chinese is not Simplified', () => {
    expect(languageOfTag('de-CH')).toBe('de');
    expect(languageOfTag('zh-CN')).toBe('zh');
    expect(languageOfTag('zh-Hans-SG')).toBe('zh');
    expect(languageOfTag('zh-TW')).toBeUndefined();
    expect(languageOfTag('pt-BR')).toBeUndefined();
    expect(languageOfTag(undefined)).toBeUndefined();
  });
});
