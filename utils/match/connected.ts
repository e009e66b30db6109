/**
 * The connected parts of a graph given by its edges (pairs of place keys): union–find with path
 * compression. Both the one-to-one step (which places compete) and the grouping across sites
 * (which listings are one business) ask this of their links.
 */
export function connectedParts<E extends { a: string; b: string }>(edges: readonly E[]): E[][] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let root = k;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    // Every key on the way now points at the root, so the next find is one step.
    for (let n = k; n !== root; ) {
      const next = parent.get(n)!;
      parent.set(n, root);
      n = next;
    }
    return root;
  };
  for (const e of edges) {
    if (!parent.has(e.a)) parent.set(e.a, e.a);
    if (!parent.has(e.b)) parent.set(e.b, e.b);
    const ra = find(e.a);
    const rb = find(e.b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const parts = new Map<string, E[]>();
  for (const e of edges) {
    const r = find(e.a);
    const list = parts.get(r);
    if (list) list.push(e);
    else parts.set(r, [e]);
  }
  return [...parts.values()];
}
