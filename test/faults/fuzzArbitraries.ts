import fc from 'fast-check';
import { z } from 'zod';
import type { Route } from '../../server/src/routes/define';
import { type FuzzWorld, EXAMPLE_BODIES, validParam } from './fuzzWorld';

/** One request the fuzzer sends: everything already in wire form. */
export interface FuzzRequest {
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The Idempotency-Key sent, if any (a stored 409/422 legitimately adds its record). */
  key: string | undefined;
}

const edgeNumbers = [
  0,
  -0,
  -1,
  1,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  5e-324,
];
const number = fc.oneof(fc.constantFrom(...edgeNumbers), fc.integer(), fc.double());
const edgeStrings = [
  '',
  ' ',
  '\u0000',
  'null',
  '%',
  '{"',
  '\ud800',
  'é',
  '😀',
  '../..',
  "'; DROP TABLE sites; --",
  'IN',
  'OUT',
  '2026-01-01T00:00:00Z',
  'x'.repeat(5_000),
];
const text = fc.oneof(
  fc.constantFrom(...edgeStrings),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Percent-encoding that survives lone surrogates (encodeURIComponent throws on them; a client would send U+FFFD). */
const encode = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/gu, '\ufffd'));

/** Any JSON value, leaning on the numbers and strings that break parsers and SQL casts. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    number,
    text,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('person', 'siteIds', 'labelIds', 'url', '__proto__')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** Every place in a JSON value: [] is the value itself, ['a', 0] its a's first item. */
function pathsOf(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [at, ...value.flatMap((item, index) => pathsOf(item, [...at, index]))];
  if (value !== null && typeof value === 'object')
    return [at, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))];
  return [at];
}

/** The example with the value at `path` replaced (or removed, when `replacement` is the symbol). */
function mutate(example: unknown, path: Array<string | number>, replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] ?? '';
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = replacement;
  return copy;
}

/** A body for a route: its valid example, one part of it broken, any JSON, not JSON at all, none, or too large. */
function bodyFor(route: Route): fc.Arbitrary<string | undefined> {
  const example = EXAMPLE_BODIES[`${route.method} ${route.path}`] ?? {};
  const paths = pathsOf(example);
  const mutated = fc
    .tuple(
      fc.constantFrom(...paths),
      jsonValue,
      fc.boolean(),
      fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    )
    .map(([path, replacement, remove, extraKey]) => {
      const body = mutate(example, path, replacement, remove);
      if (extraKey !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
        (body as Record<string, unknown>)[extraKey] = true;
      }
      return JSON.stringify(body);
    });
  return fc.oneof(
    { weight: 5, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(example)) },
    { weight: 2, arbitrary: jsonValue.map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('{', '{"a":', '[1,]', 'nul', '\u0000', '{"a":1}{"b":2}'),
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        JSON.stringify({ blob: 'x'.repeat(70 * 1024) }),
        `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
      ),
    },
  );
}

/** A path parameter: valid in the seeded world, junk, huge, negative, or not a number at all. */
function paramValue(fuzz: FuzzWorld, route: Route, name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(String(validParam(fuzz, route.path, name))) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.bigInt({ min: 2n ** 31n, max: 10n ** 40n }), fc.bigInt({ min: -(10n ** 20n), max: 0n }))
        .map(String),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x10',
        '01',
        '%20',
        '%00',
        '%',
        '%zz',
        '%2F',
        '9'.repeat(16),
        String(2 ** 53),
        '😀',
      ),
    },
    { weight: 1, arbitrary: text.filter((value) => value.length > 0 && value.length < 200).map(encode) },
  );
}

/** Query parameters: the route's own names (and stray ones) with odd values, sometimes repeated, sometimes badly encoded. */
function queryFor(route: Route): fc.Arbitrary<string> {
  const known = route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
  const name = fc.oneof(fc.constantFrom(...known, 'limit', 'cursor', 'status', 'junk'), fc.string({ maxLength: 8 }));
  const value = fc.oneof(
    text.map(encode),
    number.map((item) => encode(String(item))),
    fc.constantFrom(
      'IN,ON_BREAK',
      'IN,,',
      ',',
      'in',
      '%',
      '%zz',
      '%E0%A4%A',
      '1e400',
      '-5',
      '201',
      'eyJ0IjoxfQ',
      '&',
      '=',
    ),
  );
  const pair = fc.tuple(name, value).map(([key, item]) => `${encode(key)}=${item}`);
  return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

/** Header values a client can send (fetch refuses CR, LF, NUL and anything past Latin-1). */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((code) => code !== 0x7f)
    .map((code) => String.fromCharCode(code)),
  maxLength: 300,
});

function headersFor(
  fuzz: FuzzWorld,
  route: Route,
  adminToken: string,
): fc.Arbitrary<{ headers: Record<string, string>; key: string | undefined }> {
  const own = route.auth === 'admin' ? adminToken : fuzz.world.token;
  const other = route.auth === 'admin' ? fuzz.world.token : adminToken;
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(`Bearer ${own}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | undefined>(
        undefined,
        `Bearer ${other}`,
        'Bearer ck_junk',
        `Basic ${own}`,
        `Bearer ${own.slice(0, -1)}x`,
        'Bearer',
      ),
    },
    { weight: 1, arbitrary: headerText.map((value) => `Bearer ${value}`) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | undefined>(
        undefined,
        '',
        'text/plain',
        'application/json; charset=utf-16',
        'application/merge-patch+json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
      ),
    },
  );
  const key = fc.option(
    fc.oneof(fc.uuid(), headerText, fc.constantFrom('""', '"quoted"', 'x'.repeat(256), ' padded ')),
    { nil: undefined, freq: 2 },
  );
  const optional = fc.option(headerText, { nil: undefined, freq: 4 });
  return fc.record({ authorization, contentType, key, requestId: optional, ifNoneMatch: optional }).map((chosen) => {
    const headers: Record<string, string> = {};
    if (chosen.authorization !== undefined) headers.Authorization = chosen.authorization;
    if (chosen.contentType !== undefined) headers['Content-Type'] = chosen.contentType;
    if (chosen.key !== undefined) headers['Idempotency-Key'] = chosen.key;
    if (chosen.requestId !== undefined) headers['X-Request-Id'] = chosen.requestId;
    if (chosen.ifNoneMatch !== undefined) headers['If-None-Match'] = chosen.ifNoneMatch;
    return { headers, key: chosen.key };
  });
}

/** Requests for one route: its path with fuzzed parameters, a fuzzed query, headers and body. */
export function requestsFor(fuzz: FuzzWorld, route: Route, adminToken: string): fc.Arbitrary<FuzzRequest> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const params = fc.tuple(...names.map((name) => paramValue(fuzz, route, name)));
  return fc
    .record({ params, query: queryFor(route), head: headersFor(fuzz, route, adminToken), body: bodyFor(route) })
    .map(({ params: values, query, head, body }) => {
      let index = 0;
      const path = `/v1${route.path.replace(/:(\w+)/g, () => values[index++] ?? '')}`;
      return { path, query, headers: head.headers, body: route.method === 'GET' ? undefined : body, key: head.key };
    });
}
