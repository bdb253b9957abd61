import { describe, expect, it } from 'vitest';
import { pairingLink } from '../../shared/src/schemas/kiosks';
import { readPairingInput, tooManyCodesWords } from '../../kiosk/src/pairing';

// What a person types, or a keyboard-wedge scanner types from the console's QR code, into the Pairing code field.

describe('the Pairing code field', () => {
  it('reads the QR code text the console shows: the server address and the code', () => {
    const text = pairingLink('https://gatehouse.example.com:8443', 'ABCD2345');
    expect(text).toBe('gatehouse://pair?server=https%3A%2F%2Fgatehouse.example.com%3A8443&code=ABCD2345');
    expect(readPairingInput(text)).toEqual({ serverUrl: 'https://gatehouse.example.com:8443', code: 'ABCD2345' });
    // As a scanner may send it: spaces around, the scheme in capitals, a code in lower case with a dash.
    expect(readPairingInput('  GATEHOUSE://pair?server=http%3A%2F%2F10.0.0.5%3A3000&code=abcd-2345\n')).toEqual({
      serverUrl: 'http://10.0.0.5:3000',
      code: 'ABCD2345',
    });
    // Scanned into a field that already held something typed: the scan wins.
    expect(readPairingInput(`WXYZ${pairingLink('https://g.example', 'EFGH6789')}`)).toEqual({
      serverUrl: 'https://g.example',
      code: 'EFGH6789',
    });
  });

  it('keeps anything else as the code typed, leaving the server address alone', () => {
    expect(readPairingInput('abcd 2345')).toEqual({ code: 'abcd 2345' });
    expect(readPairingInput('')).toEqual({ code: '' });
    // Half-way through a scan (no code yet), or another app's link: not a pairing, nothing taken from it.
    expect(readPairingInput('gatehouse://pair?server=https%3A%2F%2Fg.example')).toEqual({
      code: 'gatehouse://pair?server=https%3A%2F%2Fg.example',
    });
    expect(readPairingInput('https://g.example/pair?server=x&code=ABCD2345')).toEqual({
      code: 'https://g.example/pair?server=x&code=ABCD2345',
    });
  });

  it('says how long to wait after too many wrong codes, in whole minutes', () => {
    expect(tooManyCodesWords(14 * 60_000 + 1)).toBe('Too many wrong codes. Try again in 15 minutes.');
    expect(tooManyCodesWords(20_000)).toBe('Too many wrong codes. Try again in 1 minute.');
    expect(tooManyCodesWords(0)).toBe('Too many wrong codes. Try again in 1 minute.');
    expect(tooManyCodesWords(undefined)).toBe('Too many wrong codes. Try again in 1 minute.');
  });
});
