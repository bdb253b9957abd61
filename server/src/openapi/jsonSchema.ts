import { z } from 'zod';
import { commaLists, nonBlankTexts } from '../../../shared/src/schemas/common';
import { namedSchemas } from './components';
import { refinementOf } from './refinements';

export type JsonObject = Record<string, unknown>;
export type Io = 'input' | 'output';

/** Where a named schema's definition goes; its uses refer to it there. */
export const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * What zod cannot say by itself: a positive integer is `minimum: 1` (not `exclusiveMinimum: 0`, which
 * generators read poorly), blank text is refused, a comma-separated query value is the array it reads
 * as, a field's description, and the refinements of openapi/refinements.ts.
 */
function sharpen(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonObject }, io: Io): void {
  const json = ctx.jsonSchema;
  if (json.type === 'integer' && json.exclusiveMinimum === 0) {
    delete json.exclusiveMinimum;
    json.minimum = 1;
  }
  if (nonBlankTexts.has(ctx.zodSchema)) json.pattern = '\\S';
  // A field's own words (`.meta({ description })`): the named-schema registry above carries only ids.
  const described = z.globalRegistry.get(ctx.zodSchema)?.description;
  if (described !== undefined && json.description === undefined) json.description = described;
  const list = commaLists.get(ctx.zodSchema as z.ZodType);
  if (list && io === 'input') {
    for (const key of Object.keys(json)) delete json[key];
    Object.assign(json, { type: 'array', items: { type: 'string', enum: [...list.values] }, minItems: 1 });
  }
  refinementOf(ctx.zodSchema as z.ZodType)?.(json, io);
}

/**
 * Converts schemas to JSON Schema, gathering every named schema (openapi/components.ts) it meets into
 * `components`, under its name, and referring to it there. A named schema has one form: one named for
 * requests is only read (input), one named for answers only written (output); a name met in two different
 * forms is a mistake in components.ts, refused here (the OpenAPI test builds the document).
 */
export class SchemaCollector {
  readonly components: Record<string, JsonObject> = {};

  toSchema(schema: z.ZodType, io: Io): JsonObject {
    const {
      $schema: _dialect,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      metadata: namedSchemas,
      override: (ctx) => sharpen(ctx, io),
    });
    const found = Object.entries($defs ?? {}).map(([name, definition]) => [name, this.relink(definition)] as const);
    for (const [name, definition] of found) this.add(name, definition as JsonObject);
    return this.relink(rest) as JsonObject;
  }

  /** Adds a component written here (not converted from zod), or checks it is the one already there. */
  add(name: string, definition: JsonObject): void {
    const known = this.components[name];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(definition)) {
      throw new Error(`OpenAPI: the named schema ${name} has two forms (as a request and as an answer); name only one`);
    }
    this.components[name] = definition;
  }

  /** `#/$defs/<name>` (as zod writes it) → `#/components/schemas/<name>`, everywhere in `value`. */
  private relink(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.relink(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) =>
        key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')
          ? [key, componentRef(item.slice('#/$defs/'.length))]
          : [key, this.relink(item)],
      ),
    );
  }
}
