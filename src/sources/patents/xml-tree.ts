/**
 * One XML document as a small tree, built with the `sax` parser (strict mode), and the few
 * look-ups the USPTO mapping needs. Processing instructions stay in the tree in document
 * order: USPTO marks the government-interest statement of a grant's description with them
 * (`<?GOVINT ... end="lead"?> ... <?GOVINT ... end="tail"?>`).
 */
import sax from 'sax';

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}

/** A processing instruction: `<?GOVINT description="Government Interest" end="lead"?>`. */
export interface XmlInstruction {
  readonly instruction: string;
  readonly body: string;
}

export type XmlNode = XmlElement | XmlInstruction | string;

/** The document is not well-formed XML: the message names the line. */
export class XmlSyntaxError extends Error {}

/** Parses one XML document (declaration and DOCTYPE allowed) into its root element. */
export function parseXml(text: string): XmlElement {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true });
  const stack: { name: string; attributes: Record<string, string>; children: XmlNode[] }[] = [];
  let root: XmlElement | undefined;
  parser.onerror = (err: Error): void => {
    throw new XmlSyntaxError(err.message.split('\n')[0] + ` (line ${parser.line + 1})`);
  };
  // Without the `xmlns` option sax gives plain tags: attribute values are strings.
  parser.onopentag = (tag): void => {
    stack.push({ name: tag.name, attributes: { ...(tag as sax.Tag).attributes }, children: [] });
  };
  parser.onclosetag = (): void => {
    const done = stack.pop();
    if (done === undefined) return;
    const parent = stack[stack.length - 1];
    if (parent === undefined) root = done;
    else parent.children.push(done);
  };
  const text_ = (t: string): void => {
    const top = stack[stack.length - 1];
    if (top !== undefined && t !== '') top.children.push(t);
  };
  parser.ontext = text_;
  parser.oncdata = text_;
  parser.onprocessinginstruction = (pi: { name: string; body: string }): void => {
    stack[stack.length - 1]?.children.push({ instruction: pi.name, body: pi.body });
  };
  parser.write(text).close();
  if (root === undefined) throw new XmlSyntaxError('no root element');
  return root;
}

export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && 'name' in n;

/** The child elements named `name` (all child elements without one). */
export function children(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (el === undefined) return [];
  return el.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

/** The first element down `path` (`a/b/c`, child names), or undefined. */
export function at(el: XmlElement | undefined, path: string): XmlElement | undefined {
  let here = el;
  for (const step of path.split('/')) {
    here = children(here, step)[0];
    if (here === undefined) return undefined;
  }
  return here;
}

/** Every element down `path`; the last step may match many. */
export function all(el: XmlElement | undefined, path: string): XmlElement[] {
  const steps = path.split('/');
  const last = steps.pop() as string;
  return children(steps.length === 0 ? el : at(el, steps.join('/')), last);
}

/** Every descendant element named `name`, in document order. */
export function descendants(el: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    for (const c of e.children)
      if (isElement(c)) {
        if (c.name === name) out.push(c);
        walk(c);
      }
  };
  if (el !== undefined) walk(el);
  return out;
}

/** The text of a node and its descendants, whitespace collapsed to single spaces and trimmed. */
export function textOf(node: XmlNode | undefined): string {
  const parts: string[] = [];
  const walk = (n: XmlNode): void => {
    if (typeof n === 'string') parts.push(n);
    else if (isElement(n)) for (const c of n.children) walk(c);
  };
  if (node !== undefined) walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The text down `path`, or undefined when the element is missing or empty. */
export function textAt(el: XmlElement | undefined, path: string): string | undefined {
  const t = textOf(at(el, path));
  return t === '' ? undefined : t;
}
