import { describe, expect, it } from 'vitest';
import { csvCell } from '../../server/src/exports/csv';

// The audit's reproductions (issue 31): a leading space or line break before `=`, and full-width `＝`,
// reached a spreadsheet as a formula.
describe('CSV formula neutralization', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    [' =HYPERLINK("x")', `"' =HYPERLINK(""x"")"`],
    ['\n=1+1', `"'\n=1+1"`],
    ['\u00a0 =1', "'\u00a0 =1"],
    ['\u200b=1', "'\u200b=1"],
    ['\ufeff@x', "'\ufeff@x"],
    ['\u200e-2', "'\u200e-2"],
    ['＝1+1', "'＝1+1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['  ＝1', "'  ＝1"],
  ])('neutralizes %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['Ada', 'Ada'],
    ['a=b', 'a=b'],
    ['Jean-Luc', 'Jean-Luc'],
    [' spaced', ' spaced'],
    ['', ''],
  ])('leaves %j as it is', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('leaves numbers alone', () => {
    expect(csvCell(-5)).toBe('-5');
  });
});
