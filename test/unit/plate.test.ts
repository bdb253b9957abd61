import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PLATE_LENGTH, isValidPlate, normalizePlate, plateProblem } from '../../shared/src/domain';
import { LicensePlate } from '../../shared/src/schemas/vehicles';

describe('normalizePlate (docs/api.md, License plates)', () => {
  it('upper-cases and removes spaces, "-", "." and "·"', () => {
    expect(normalizePlate('ab-123 cd')).toBe('AB123CD');
    expect(normalizePlate('AB123CD')).toBe('AB123CD');
    expect(normalizePlate('ab.123.cd')).toBe('AB123CD');
    expect(normalizePlate('AB·123·CD')).toBe('AB123CD');
    expect(normalizePlate(' a b - 1 2 3 ')).toBe('AB123');
    expect(normalizePlate('ab\t123')).toBe('AB123');
  });

  it('keeps letters of other scripts, upper-cased', () => {
    expect(normalizePlate('mü-ab 12')).toBe('MÜAB12');
    expect(normalizePlate('а 123 вс')).toBe('А123ВС');
    expect(normalizePlate('品川 300')).toBe('品川300');
  });

  it('treats a letter with a combining accent as the precomposed letter', () => {
    expect(normalizePlate('mu\u0308-1')).toBe(normalizePlate('MÜ-1'));
  });

  it('reads full-width forms, ligatures and circled digits as plain letters and digits (NFKC)', () => {
    expect(normalizePlate('ＡＢ－１２３　ｃｄ')).toBe('AB123CD');
    expect(normalizePlate('ＡＢ-123')).toBe('AB123');
    expect(normalizePlate('ﬀ ①②')).toBe('FF12');
    expect(normalizePlate('ｶﾞ 1')).toBe('ガ1');
    expect(normalizePlate('ǆ1')).toBe('DŽ1');
  });

  it('keeps every other character, so validity can refuse it', () => {
    expect(normalizePlate('AB_12')).toBe('AB_12');
    expect(normalizePlate('AB/12')).toBe('AB/12');
  });
});

describe('plate validity', () => {
  it('accepts 1 to 16 of A–Z, 0–9 and letters of other scripts, separators not counted', () => {
    for (const plate of [
      'A',
      '1',
      'ab-123 cd',
      'MÜ-AB 123',
      'А123ВС',
      '品川300',
      'X'.repeat(16),
      'AB-CD-EF-GH-12-34-56-78',
      '１２３',
      'ＡＢ－１',
    ]) {
      expect(isValidPlate(plate), plate).toBe(true);
    }
  });

  it('refuses an empty plate, separators alone, more than 16 characters, and anything but letters and digits', () => {
    for (const plate of ['', '   ', '-.·', 'X'.repeat(17), 'AB_12', 'AB/12', 'AB#1', 'AB+1', 'AB🚗', '\u0308', 'Aﾞ1']) {
      expect(isValidPlate(plate), plate).toBe(false);
      expect(plateProblem(plate)).toEqual(expect.any(String));
    }
  });

  it('counts characters, not UTF-16 units', () => {
    const sixteen = '𝐀'.repeat(16);
    expect([...normalizePlate(sixteen)].length).toBe(MAX_PLATE_LENGTH);
    expect(isValidPlate(sixteen)).toBe(true);
    expect(isValidPlate('𝐀'.repeat(17))).toBe(false);
  });

  it('the LicensePlate schema trims, keeps the plate as entered, and names the problem', () => {
    expect(LicensePlate.parse(' ab-123 cd ')).toBe('ab-123 cd');
    const refused = LicensePlate.safeParse('AB_12');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/letters, digits/);
  });
});

const plateChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ÄÖÜäöüЖж品');
const separator = fc.constantFrom(' ', '-', '.', '·');

describe('plate properties', () => {
  it('normalizing twice is normalizing once', () => {
    // Found by this property: the Greek ano teleia is the middle dot (a separator) once in NFC.
    expect(normalizePlate('AB\u0387123')).toBe('AB123');
    expect(normalizePlate(normalizePlate('\u0387'))).toBe(normalizePlate('\u0387'));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (plate) => {
        expect(normalizePlate(normalizePlate(plate))).toBe(normalizePlate(plate));
      }),
    );
  });

  it('separators anywhere and letter case never change which plate it is', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plateChar, fc.option(separator)), { minLength: 1, maxLength: 16 }), (parts) => {
        const bare = parts.map(([char]) => char).join('');
        const spaced = parts.map(([char, sep]) => `${char}${sep ?? ''}`).join('');
        expect(normalizePlate(spaced)).toBe(normalizePlate(bare.toLowerCase()));
        expect(isValidPlate(spaced)).toBe(true);
        expect(normalizePlate(spaced)).toMatch(/^[^\s\-.·]+$/u);
      }),
    );
  });
});
