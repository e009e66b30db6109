import type { BBox } from '../../utils/geo/types';
import type { Observation } from '../../utils/domain/sweep';

/** The box an observation says its page surely searched; null for any other kind of proof (or none). */
export function measuredBox(o: Pick<Observation, 'searched'>): BBox | null {
  return o.searched?.kind === 'measured' ? o.searched.box : null;
}
