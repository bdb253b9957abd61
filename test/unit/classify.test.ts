import { DatabaseError } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { toProblem } from '../../server/src/errors/classify';
import { isDatabaseUnavailable } from '../../server/src/db/unavailable';

const wrapped = (message: string, code?: string) =>
  new DatabaseError(
    Object.assign(new Error(message), code ? { code } : {}) as ConstructorParameters<typeof DatabaseError>[0],
  );

describe('which database errors mean "unavailable, retry"', () => {
  it('maps lost connections, shutdowns and client-side timeouts to 503 UNAVAILABLE', () => {
    for (const error of [
      wrapped('Query read timeout'),
      wrapped('Connection terminated unexpectedly'),
      wrapped('terminating connection due to administrator command', '57P01'),
      wrapped('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(toProblem(error).problem.code).toBe('UNAVAILABLE');
    }
  });

  it('keeps real bugs as 500 INTERNAL', () => {
    const error = wrapped('syntax error at or near "SELEC"', '42601');
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(toProblem(error)).toMatchObject({ unexpected: true, problem: { code: 'INTERNAL' } });
  });
});
