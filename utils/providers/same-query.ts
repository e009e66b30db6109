/** Whether two search words are the same search: case, and white space at the ends and between words, aside. */
export function sameQuery(a: string, b: string): boolean {
  const norm = (q: string) => q.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(a) === norm(b);
}
