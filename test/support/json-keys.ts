/**
 * The keys that occur more than once in one object of a JSON text, as `path.key`. `JSON.parse`
 * silently keeps the last of two equal keys, so it cannot tell; this walks the text itself.
 * Throws when the text is not JSON.
 */
export function duplicateKeys(text: string): string[] {
  let at = 0;
  const duplicates: string[] = [];
  const space = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const expect = (char: string) => {
    space();
    if (text[at] !== char) throw new Error(`expected ${char} at ${at} in ${text.slice(0, 200)}`);
    at++;
  };
  const string = (): string => {
    space();
    const start = at;
    expect('"');
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (path: string): void => {
    space();
    const char = text[at];
    if (char === '{') {
      at++;
      const seen = new Set<string>();
      space();
      if (text[at] === '}') return void at++;
      for (;;) {
        const key = string();
        if (seen.has(key)) duplicates.push(`${path}${key}`);
        seen.add(key);
        expect(':');
        value(`${path}${key}.`);
        space();
        if (text[at] === ',') at++;
        else return expect('}');
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text[at] === ']') return void at++;
      for (let index = 0; ; index++) {
        value(`${path}${index}.`);
        space();
        if (text[at] === ',') at++;
        else return expect(']');
      }
    }
    if (char === '"') return void string();
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at));
    if (!literal) throw new Error(`not JSON at ${at}: ${text.slice(at, at + 40)}`);
    at += literal[0].length;
  };
  value('');
  space();
  if (at !== text.length) throw new Error(`trailing text at ${at}`);
  return duplicates;
}
