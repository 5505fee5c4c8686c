// The published entry as a React Server Components bundler (Next.js App Router) reads it: the
// directive must be the file's first statement, in the built file the exports map points at.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageDir = new URL('../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as { exports: { '.': { default: string } } };

describe('the built entry', () => {
  it('starts with the "use client" directive, so a server component imports client references', () => {
    const file = new URL(manifest.exports['.'].default, packageDir);
    const source = ts.createSourceFile(file.pathname, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
    const first = source.statements[0];
    expect(first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) ? first.expression.text : first?.getText(source)).toBe('use client');
  });
});
