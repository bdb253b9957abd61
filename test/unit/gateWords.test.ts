import { describe, expect, it } from 'vitest';
import { plateProblem } from '../../shared/src/domain';
import { inputAfter } from '../../kiosk/renderer/hooks/useGateActions';
import { describeRefusal, gateReason, plainReason } from '../../kiosk/renderer/words';

describe('the gate input once an action ends', () => {
  it('drops a recorded plate and keeps what the scanner typed after it', () => {
    expect(inputAfter('DD 444', 'DD 444', true)).toBe('');
    expect(inputAfter('DD 444EE 555', 'DD 444', true)).toBe('EE 555');
  });

  it('keeps a refused plate for one more press, but drops it when more was typed meanwhile, so two plates never merge', () => {
    expect(inputAfter('DD 444', 'DD 444', false)).toBe('DD 444');
    expect(inputAfter('DD 444EE 555', 'DD 444', false)).toBe('EE 555');
  });

  it('leaves an input edited during the action as it is', () => {
    expect(inputAfter('XY 1', 'DD 444', true)).toBe('XY 1');
    expect(inputAfter('XY 1', 'DD 444', false)).toBe('XY 1');
  });
});

describe('refusals in words', () => {
  it("keeps a local command's own message where it names the cause", () => {
    expect(plainReason('NOT_FOUND', 'This visit is not on this kiosk.')).toBe('This visit is not on this kiosk.');
    expect(plainReason('VEHICLE_ALREADY_ON_SITE', 'AB 1 is already on site (STOP).')).toBe(
      'AB 1 is already on site (STOP).',
    );
    expect(
      plainReason('NOT_SAVED', 'This device could not save it; nothing was recorded. Please try again.'),
    ).toContain('could not save');
  });

  it('says a form refusal and a state conflict in plain words, whoever refused', () => {
    expect(plainReason('VALIDATION_FAILED', 'The check-in does not meet the site configuration.')).toBe(
      'Some details were not accepted.',
    );
    expect(plainReason('CHECKIN_CLOSED', 'This check-in is already checked out.')).toBe(
      'This visit is already checked out.',
    );
  });

  it('explains a plate the gate refused by the plate rule it broke', () => {
    const problem = plateProblem('AB 12$') ?? '';
    expect(
      gateReason({ code: 'VALIDATION_FAILED', message: problem, errors: [{ path: 'licensePlate', message: problem }] }),
    ).toBe(`${problem}.`);
    expect(gateReason({ code: 'NOT_FOUND', message: 'QQ 1 has no open visit on this site.' })).toBe(
      'QQ 1 has no open visit on this site.',
    );
  });

  it("keeps the server's refusals in the words Needs attention always used", () => {
    expect(describeRefusal({ status: 404, code: 'NOT_FOUND', message: 'Not found' }).reason).toContain(
      'The server does not know this site or visit.',
    );
    expect(describeRefusal({ status: 422, code: 'VALIDATION_FAILED', message: 'Invalid' }).reason).toBe(
      'Some details were not accepted.',
    );
    expect(describeRefusal({ status: 409, code: 'VEHICLE_ALREADY_ON_SITE', message: 'x' }).reason).toBe(
      'This vehicle is already on site.',
    );
  });
});
