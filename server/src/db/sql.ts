/**
 * SQL as tagged templates: `sql\`SELECT … WHERE id = ${id}\`` numbers its placeholders itself, and a value
 * that is itself `sql\`…\`` is a fragment spliced in (its values numbered in place). `raw` is for trusted
 * text from code only (never from a request); `join` lists fragments or values; `empty` is no text.
 */
export { Sql, empty, join, raw, default as sql } from 'sql-template-tag';
