import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import english from '../../shared/src/messages/console/en.json';

// Every word the console shows comes from its catalog (docs/languages.md, The console), so a translation is a
// file. This reads the console's source as TypeScript and finds words written into it instead.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONSOLE = path.join(ROOT, 'console');

/**
 * Words the console rightly writes as they are, by file and text, each with why: not English a translation
 * would change.
 */
const ALLOWED: ReadonlyArray<{ file: string; text: string; why: string }> = [
  {
    file: 'console/onSite/hostTold.ts',
    text: 'Email is off: this server has no SMTP_URL',
    why: "the server's message it recognises, never shown",
  },
];

/** Props whose value is shown or read out (the console's own components' props included). */
const SHOWN_PROPS = new Set([
  'aria-label',
  'aria-description',
  'title',
  'alt',
  'placeholder',
  'label',
  'legend',
  'header',
  'message',
  'confirm',
  'submit',
  'warning',
  'text',
]);

const hasLetter = (text: string) => /\p{L}/u.test(text);
/** Text that reads as words: a capitalised word ("Delete", "No hosts yet.") or words with a space between. */
const readsAsWords = (text: string) => /^\p{Lu}\p{Ll}/u.test(text.trim()) || /\p{L}{2,} \p{L}{2,}/u.test(text);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && entry.name !== 'vite.config.ts' ? [full] : [];
  });
}

interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The texts of a string or template literal: a template's fixed parts, each on its own. */
function literalTexts(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  return [];
}

/** Whether a literal is code, not words: an import, a type, a property's name, a log or thrown message. */
function isCode(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at) || ts.isLiteralTypeNode(at)) return true;
    // Errors thrown and logged are for developers (a read's failure is put in words by console/words.ts).
    if (ts.isNewExpression(at) && /Error$/.test(at.expression.getText())) return true;
    if (ts.isCallExpression(at) && /^(super|console\.\w+)$/.test(at.expression.getText())) return true;
    // Class names style a thing; a hook's first array is its cache key (`useLoaded(['sites', 'with archived'])`).
    if ((ts.isJsxAttribute(at) || ts.isPropertyAssignment(at)) && at.name.getText() === 'className') return true;
    if (
      ts.isArrayLiteralExpression(at) &&
      ts.isCallExpression(at.parent) &&
      at.parent.arguments[0] === at &&
      /^use[A-Z]/.test(at.parent.expression.getText())
    )
      return true;
    if (ts.isBlock(at) || ts.isSourceFile(at)) break;
  }
  const parent = node.parent;
  if (parent && (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node)
    return true;
  if (parent && ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  // A value compared with (`event.key === 'Escape'`) is read, not shown.
  const compares = [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken];
  if (parent && ts.isBinaryExpression(parent) && compares.includes(parent.operatorToken.kind)) return true;
  return false;
}

/** Whether a literal is a catalog key (`words.t('hosts.add')`, a page's `name: 'nav.hosts'`). */
const isKey = (text: string) => Object.hasOwn(english, text);

/** The literals an expression shows: through `a ? b : c`, `a ?? b`, `a || b`, `a + b` and parentheses. */
function shownTexts(node: ts.Node): string[] {
  if (ts.isJsxExpression(node) || ts.isParenthesizedExpression(node))
    return node.expression ? shownTexts(node.expression) : [];
  if (ts.isConditionalExpression(node)) return [...shownTexts(node.whenTrue), ...shownTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node)) return [...shownTexts(node.left), ...shownTexts(node.right)];
  return literalTexts(node);
}

/** The words written into a source: JSX text, a shown prop's literal, any literal that reads as words. */
function wordsIn(source: ts.SourceFile): Array<{ node: ts.Node; text: string }> {
  const found: Array<{ node: ts.Node; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasLetter(node.text)) found.push({ node, text: node.text.trim() });
    else if (ts.isJsxAttribute(node) && SHOWN_PROPS.has(node.name.getText()) && node.initializer) {
      for (const text of shownTexts(node.initializer))
        if (hasLetter(text) && !isKey(text)) found.push({ node, text: text.trim() });
    } else if (!isCode(node))
      for (const text of literalTexts(node))
        if (readsAsWords(text) && !isKey(text)) found.push({ node, text: text.trim() });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function wordsWrittenIn(file: string): Finding[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const shown = wordsIn(source).map(({ node, text }) => ({
    file: path.relative(ROOT, file).split(path.sep).join('/'),
    line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    text,
  }));
  // A prop's template is found as the prop and as a literal: once is enough.
  return shown.filter(
    (finding, index) =>
      shown.findIndex((other) => other.line === finding.line && other.text === finding.text) === index,
  );
}

/** Every string literal in the console, and the keys its templates build (`role.${role}` as /^role\..*$/). */
function keysUsed(): { literals: Set<string>; patterns: RegExp[] } {
  const literals = new Set<string>();
  const patterns: RegExp[] = [];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const file of sourceFiles(CONSOLE)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.add(node.text);
      if (ts.isTemplateExpression(node) && /^[a-z][A-Za-z]*\./.test(node.head.text))
        patterns.push(
          new RegExp(
            `^${escape(node.head.text)}${node.templateSpans.map((span) => `.+${escape(span.literal.text)}`).join('')}$`,
          ),
        );
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, patterns };
}

/** The keys the console looks up by name: the key of every `t(…)`, `rich(…)` and `richWords(…)` call. */
function keysLookedUp(): Finding[] {
  const found: Finding[] = [];
  for (const file of sourceFiles(CONSOLE)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
        const key = name === 'richWords' ? node.arguments[1] : node.arguments[0];
        if (['t', 'rich', 'richWords'].includes(name) && key && ts.isStringLiteral(key))
          found.push({
            file: path.relative(ROOT, file),
            line: source.getLineAndCharacterOfPosition(key.getStart()).line + 1,
            text: key.text,
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the console catalog', () => {
  const files = sourceFiles(CONSOLE);

  it('reads the console', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(keysLookedUp().length).toBeGreaterThan(100);
  });

  it('holds every word the console shows: none written into a screen', () => {
    const allowed = (finding: Finding) =>
      ALLOWED.some((entry) => entry.file === finding.file && entry.text === finding.text);
    const written = files.flatMap(wordsWrittenIn).filter((finding) => !allowed(finding));
    expect(written.map((finding) => `${finding.file}:${finding.line} ${JSON.stringify(finding.text)}`)).toEqual([]);
  });

  it('has every key the console looks up', () => {
    const missing = keysLookedUp().filter((finding) => !isKey(finding.text));
    expect(missing.map((finding) => `${finding.file}:${finding.line} ${finding.text}`)).toEqual([]);
  });

  it('has no key the console never uses', () => {
    const { literals, patterns } = keysUsed();
    const unused = Object.keys(english).filter(
      (key) => !literals.has(key) && !patterns.some((pattern) => pattern.test(key)),
    );
    expect(unused).toEqual([]);
  });

  it('finds words written into a screen (the check can fail)', () => {
    const probe = path.join(CONSOLE, 'probe.tsx');
    const sample = [
      'export const A = () => <button aria-label="Close it">Close</button>;',
      "export const B = () => <Field label={'Name'} />;",
      "export const c = (on: boolean) => (on ? 'Turned on.' : 'Turned off.');",
      "export const d = (on: boolean) => <p>{on ? 'Yes' : 'No'}</p>;",
    ].join('\n');
    const source = ts.createSourceFile(probe, sample, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const texts = wordsIn(source).map((found) => found.text);
    expect(texts).toEqual(
      expect.arrayContaining(['Close it', 'Close', 'Name', 'Turned on.', 'Turned off.', 'Yes', 'No']),
    );
  });
});
