import type { BBox } from '../../utils/geo/types';

/**
 * Cell (row, col) of a 2-row grid of `size`° squares whose south-west corner is (south, west):
 * row 0 is the northern row. The defaults give a 2×2 grid of 1° cells round (0, 0).
 */
export const gridCell = (row: number, col: number, size = 1, south = -1, west = -1): BBox => ({
  south: south + (1 - row) * size,
  north: south + (2 - row) * size,
  west: west + col * size,
  east: west + (col + 1) * size,
});
