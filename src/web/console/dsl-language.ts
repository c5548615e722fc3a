/**
 * Syntax highlighting for the query language in the console editor: a small stream
 * tokenizer (keywords, strings including triple-quoted ones, numbers, names, operators).
 * It only colours text; the server's parser is the judge of what is valid.
 */
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { KEYWORDS } from '../../dsl/keywords.ts';

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

interface DslState {
  /** Inside a triple-quoted string that continues on the next line. */
  inTriple: boolean;
}

function readString(stream: StringStream): void {
  // Opening quote already consumed: read to the closing quote, honouring \" and \\.
  let escaped = false;
  while (!stream.eol()) {
    const ch = stream.next();
    if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === '"') return;
  }
}

function readTriple(stream: StringStream, state: DslState): void {
  while (!stream.eol()) {
    if (stream.match('"""')) {
      state.inTriple = false;
      return;
    }
    stream.next();
  }
  state.inTriple = true;
}

export const dslLanguage = StreamLanguage.define<DslState>({
  name: 'quarry-dsl',
  startState: () => ({ inTriple: false }),
  token(stream, state) {
    if (state.inTriple) {
      readTriple(stream, state);
      return 'string';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('"""')) {
      readTriple(stream, state);
      return 'string';
    }
    if (stream.eat('"')) {
      readString(stream);
      return 'string';
    }
    if (stream.match(/^-?\d+(\.\d+)?/)) return 'number';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word) {
      const text = (word as RegExpMatchArray)[0].toLowerCase();
      if (KEYWORD_SET.has(text)) return 'keyword';
      return stream.peek() === '(' ? 'function' : 'variableName';
    }
    if (stream.match(/^(!=|>=|<=|[=<>~])/)) return 'operator';
    if (stream.match(/^[[\](),+\-:.@]/)) return 'punctuation';
    stream.next();
    return null;
  },
  tokenTable: { function: tags.function(tags.variableName) },
  languageData: { closeBrackets: { brackets: ['(', '[', '"'] } },
});

/** Colours chosen for at least 4.5:1 contrast on the editor's white background. */
const dslHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#6f1ab1', fontWeight: '600' },
  { tag: tags.string, color: '#0b6b22' },
  { tag: tags.number, color: '#9a4a00' },
  { tag: tags.operator, color: '#a3142b' },
  { tag: tags.function(tags.variableName), color: '#0550ae' },
  { tag: tags.variableName, color: '#1f2328' },
  { tag: tags.punctuation, color: '#57606a' },
]);

export const dslHighlighting = syntaxHighlighting(dslHighlight);
