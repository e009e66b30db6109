/**
 * The names of a URL's query parameters, each once, in order. Read with `forEach`, never by
 * iterating `keys()`: in a Firefox content script the iterator `URLSearchParams.keys()` returns
 * is not iterable (Firefox bug 1023984: "t.searchParams.keys() is not iterable"), which stopped
 * the Kakao content script before it read anything. `forEach` works in every context.
 */
export function paramNames(params: URLSearchParams): string[] {
  const names: string[] = [];
  params.forEach((_value, name) => {
    if (!names.includes(name)) names.push(name);
  });
  return names;
}
