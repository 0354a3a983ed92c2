// Double-page pairing: which pages are shown side by side, from the pages' natural sizes and the offset.

/**
 * Pairs pages into spreads (lists of 1-based page numbers, in reading order).
 *
 * Without offset the first page (the cover) stands alone and pairs follow: [1], [2, 3], [4, 5], ...
 * With offset the pairing shifts by one so the first page has a partner: [1, 2], [3, 4], ...
 * A page wider than tall (a spread printed as one image) always stands alone, and the pairing after it starts
 * afresh with the next page, so a wide page never leaves its neighbours paired across it. A page whose size is not
 * known yet counts as a portrait page. The last page stands alone when no partner is left.
 *
 * @param sizes one entry per page: {width, height} or null while unknown
 * @param offset true to pair the cover with page 2
 */
export function pairPages(sizes, offset) {
  const spreads = [];
  const wide = (i) => {
    const size = sizes[i];
    return Boolean(size && size.width > size.height);
  };
  let i = 0;
  if (!offset && sizes.length) {
    spreads.push([1]);
    i = 1;
  }
  while (i < sizes.length) {
    if (wide(i) || i + 1 >= sizes.length || wide(i + 1)) {
      spreads.push([i + 1]);
      i += 1;
    } else {
      spreads.push([i + 1, i + 2]);
      i += 2;
    }
  }
  return spreads;
}

/** One spread per page (single-page mode). */
export function singlePages(count) {
  return Array.from({ length: count }, (_, i) => [i + 1]);
}

/** The index of the spread holding `page` (0 when no spread does). */
export function spreadIndexOf(spreads, page) {
  const index = spreads.findIndex((pages) => pages.includes(page));
  return index < 0 ? 0 : index;
}
