/**
 * A small reader for nginx configuration files: enough to check which upstream the gateway sends a
 * path to, without an nginx binary. It tokenises like nginx (quotes, escapes, comments, braces) and
 * chooses a location the way nginx does (exact, longest prefix, ^~, then regexes in order).
 */

export interface Directive {
  name: string;
  args: string[];
  /** Present for block directives (`http { … }`, `location / { … }`). */
  block?: Directive[];
  line: number;
}

export class NginxSyntaxError extends Error {}

interface Token {
  value: string;
  /** True for `{`, `}` and `;` outside quotes. */
  special: boolean;
  line: number;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ value: c, special: true, line });
      i++;
    } else if (c === '"' || c === "'") {
      const start = line;
      let value = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) {
          value += text[i + 1];
          i += 2;
          continue;
        }
        if (text[i] === '\n') line++;
        value += text[i];
        i++;
      }
      if (i >= text.length) throw new NginxSyntaxError(`unterminated string starting on line ${start}`);
      i++;
      tokens.push({ value, special: false, line: start });
    } else {
      let value = '';
      while (i < text.length && !/[\s;{}]/.test(text[i]!)) {
        // `${var}` keeps its braces inside a word.
        if (text[i] === '$' && text[i + 1] === '{') {
          const end = text.indexOf('}', i);
          if (end < 0) throw new NginxSyntaxError(`unterminated \${ on line ${line}`);
          value += text.slice(i, end + 1);
          i = end + 1;
          continue;
        }
        if (text[i] === '\\' && i + 1 < text.length) {
          value += text.slice(i, i + 2);
          i += 2;
          continue;
        }
        value += text[i];
        i++;
      }
      tokens.push({ value, special: false, line });
    }
  }
  return tokens;
}

/** Parses an nginx configuration into a tree of directives; throws NginxSyntaxError when malformed. */
export function parseNginxConf(text: string): Directive[] {
  const tokens = tokenize(text);
  let pos = 0;
  const parseBlock = (nested: boolean, openLine: number): Directive[] => {
    const out: Directive[] = [];
    while (pos < tokens.length) {
      const first = tokens[pos]!;
      if (first.special && first.value === '}') {
        if (!nested) throw new NginxSyntaxError(`unexpected "}" on line ${first.line}`);
        pos++;
        return out;
      }
      if (first.special) throw new NginxSyntaxError(`unexpected "${first.value}" on line ${first.line}`);
      pos++;
      const args: string[] = [];
      for (;;) {
        const t = tokens[pos];
        if (!t) throw new NginxSyntaxError(`directive "${first.value}" on line ${first.line} is not closed`);
        pos++;
        if (!t.special) {
          args.push(t.value);
        } else if (t.value === ';') {
          out.push({ name: first.value, args, line: first.line });
          break;
        } else if (t.value === '{') {
          out.push({ name: first.value, args, block: parseBlock(true, t.line), line: first.line });
          break;
        } else {
          throw new NginxSyntaxError(`unexpected "}" in directive "${first.value}" on line ${t.line}`);
        }
      }
    }
    if (nested) throw new NginxSyntaxError(`block opened on line ${openLine} is not closed`);
    return out;
  };
  return parseBlock(false, 0);
}

/** Directives named `name` directly inside `block`. */
export function children(block: Directive[] | undefined, name: string): Directive[] {
  return (block ?? []).filter((d) => d.name === name);
}

/** The value of the first `name` directive directly inside `block`, its arguments joined by spaces. */
export function value(block: Directive[] | undefined, name: string): string | undefined {
  return children(block, name)[0]?.args.join(' ');
}

export interface Location {
  modifier: '=' | '^~' | '~' | '~*' | '';
  pattern: string;
  directive: Directive;
}

export function locationsOf(server: Directive): Location[] {
  return children(server.block, 'location').map((directive) => {
    const [a, b] = directive.args;
    if (directive.args.length === 2 && (a === '=' || a === '^~' || a === '~' || a === '~*')) {
      return { modifier: a, pattern: b!, directive };
    }
    if (directive.args.length !== 1) {
      throw new NginxSyntaxError(`location on line ${directive.line} has ${directive.args.length} arguments`);
    }
    return { modifier: '', pattern: a!, directive };
  });
}

/** nginx's choice of location for a URI path (no nested locations, no named locations). */
export function matchLocation(locations: Location[], path: string): Location | undefined {
  const exact = locations.find((l) => l.modifier === '=' && l.pattern === path);
  if (exact) return exact;
  let longest: Location | undefined;
  for (const l of locations) {
    if ((l.modifier === '' || l.modifier === '^~') && path.startsWith(l.pattern)) {
      if (!longest || l.pattern.length > longest.pattern.length) longest = l;
    }
  }
  if (longest?.modifier === '^~') return longest;
  for (const l of locations) {
    if (l.modifier === '~' && new RegExp(l.pattern).test(path)) return l;
    if (l.modifier === '~*' && new RegExp(l.pattern, 'i').test(path)) return l;
  }
  return longest;
}

/**
 * Where a location proxies to: its proxy_pass, with `$variables` replaced by the values `set` in the
 * location or, failing that, in the server.
 */
export function proxyTarget(server: Directive, location: Location): string | undefined {
  const pass = value(location.directive.block, 'proxy_pass');
  if (!pass) return undefined;
  const sets = new Map<string, string>();
  for (const d of [...children(server.block, 'set'), ...children(location.directive.block, 'set')]) {
    if (d.args.length === 2) sets.set(d.args[0]!, d.args[1]!);
  }
  return pass.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => sets.get(`$${name}`) ?? whole);
}
