// The library page's collection editor (admins): a collection's name and titles, the titles found by searching
// (GET /api/series?q=) one page at a time, never from a list of the whole library; saved with PUT
// /api/admin/catalog/collections/{id}, removed with DELETE (docs/api.md "Catalog").
import { el, byId, plural, toast } from './dom.js';
import { getJson, putJson, request } from './api.js';

/** Titles the editor lists at a time. */
const PICKS = 50;

/**
 * Wires the editor's form and returns its opener, `open(collection)` (null: a new collection).
 *
 * @param library what the library page shares: `listPath(options)` (the list's address), `remember(series)` (notes
 *     their titles, returns them), `titleOf(id)`, `loaded()` (the grid's series so far), `collections()` (the current
 *     ones) and `reload()` (after a save or a delete)
 */
export function collectionEditor(library) {
  let editing = null;
  /** The collection being edited: its series ids (in order) with their titles. */
  let chosen = new Map();
  let findSeq = 0;

  /**
   * Opens the collection form: a new collection (null) or an existing one to rename, fill or delete. Its titles are
   * found by searching (GET /api/series?q=), one page at a time, never from a list of the whole library.
   */
  function openEditor(collection) {
    editing = collection;
    byId('collection-editor-heading').textContent = collection ? `Edit “${collection.name}”` : 'New collection';
    byId('collection-name').value = collection ? collection.name : '';
    byId('collection-delete').hidden = !collection;
    byId('collection-error').textContent = '';
    byId('collection-find').value = '';
    chosen = new Map((collection ? collection.series : []).map((id) => [id, library.titleOf(id) || id]));
    drawChosen();
    // At once the titles the grid has loaded (by title), then the server's first page: the same nodes where they match.
    const first = [...library.loaded()].sort((a, b) => (a.title || a.id).localeCompare(b.title || b.id))
      .slice(0, PICKS);
    drawPicks(first, null);
    byId('collection-editor').hidden = false;
    byId('collection-name').focus();
    findTitles();
    if (collection) nameMembers(collection);
  }

  /** The members' titles (a collection may hold series the page has not seen), a page of 500 at a time. */
  async function nameMembers(collection) {
    for (let page = 1; editing === collection; page++) {
      let answer;
      try {
        answer = await getJson(library.listPath({ q: '', order: '', collection: collection.id, page, size: 500 }));
      } catch (e) {
        return;
      }
      if (editing !== collection) return;
      for (const s of library.remember(answer.series || [])) if (chosen.has(s.id)) chosen.set(s.id, s.title || s.id);
      drawChosen();
      if (page * 500 >= (Number(answer.total) || 0)) return;
    }
  }

  /** The editor's search: the first PICKS titles containing what is typed. */
  async function findTitles() {
    const seq = ++findSeq;
    const q = byId('collection-find').value.trim();
    let answer;
    try {
      answer = await getJson(library.listPath({ q, order: 'title', page: 1, size: PICKS }));
    } catch (e) {
      if (!e.redirecting && seq === findSeq) byId('collection-picks-status').textContent = e.message;
      return;
    }
    if (seq !== findSeq || byId('collection-editor').hidden) return;
    drawPicks(library.remember(answer.series || []), Number(answer.total) || 0, q);
  }

  /** The found titles as checkboxes, reusing the box of a title already listed. */
  function drawPicks(series, count, q = '') {
    const box = byId('collection-series');
    const existing = new Map([...box.querySelectorAll('label')].map((label) => [label.dataset.series, label]));
    box.replaceChildren(...series.map((s) => {
      let label = existing.get(s.id);
      if (!label) {
        const input = el('input', { type: 'checkbox', value: s.id });
        input.addEventListener('change', () => {
          if (input.checked) chosen.set(s.id, s.title || s.id);
          else chosen.delete(s.id);
          drawChosen();
        });
        const title = s.title || s.id;
        label = el('label', { 'data-series': s.id }, input, el('span', { text: title, title }));
      }
      label.querySelector('input').checked = chosen.has(s.id);
      return label;
    }));
    const status = byId('collection-picks-status');
    if (count == null) status.textContent = '';
    else if (count === 0) status.textContent = q ? `No title contains “${q}”.` : 'The library has no titles yet.';
    else if (count > series.length) status.textContent = `${series.length} of ${count} titles: search to find others.`;
    else status.textContent = plural(count, 'title');
  }

  /** The collection's titles as they will be saved; unticking one takes it out. */
  function drawChosen() {
    const box = byId('collection-chosen');
    byId('collection-chosen-heading').textContent = chosen.size ? `In this collection: ${plural(chosen.size, 'title')}`
      : 'No titles chosen yet';
    box.replaceChildren(...[...chosen].map(([id, title]) => {
      const input = el('input', { type: 'checkbox', value: id, checked: true });
      input.addEventListener('change', () => {
        chosen.delete(id);
        const pick = byId('collection-series').querySelector(`label[data-series="${CSS.escape(id)}"] input`);
        if (pick) pick.checked = false;
        drawChosen();
      });
      return el('label', {}, input, el('span', { text: title, title }));
    }));
  }

  function closeEditor() {
    editing = null;
    byId('collection-editor').hidden = true;
  }

  /** A collection id from its name: letters, digits and dashes (the catalog's rule), unique among the collections. */
  function newId(name) {
    const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)
      || 'collection';
    let id = base;
    for (let i = 2; library.collections().some((c) => c.id === id); i++) id = `${base}-${i}`;
    return id;
  }

  async function saveCollection(event) {
    event.preventDefault();
    const name = byId('collection-name').value.trim();
    if (!name) {
      byId('collection-error').textContent = 'Give the collection a name.';
      return;
    }
    const series = [...chosen.keys()];
    const id = editing ? editing.id : newId(name);
    try {
      await putJson(`/api/admin/catalog/collections/${encodeURIComponent(id)}`, { name, series });
      toast(`Saved “${name}”`);
      closeEditor();
      await library.reload();
    } catch (e) {
      if (!e.redirecting) byId('collection-error').textContent = e.message;
    }
  }

  async function deleteCollection() {
    const question = `Delete the collection “${editing && editing.name}”? Its titles stay in the library.`;
    if (!editing || !window.confirm(question)) return;
    try {
      await request('DELETE', `/api/admin/catalog/collections/${encodeURIComponent(editing.id)}`);
      toast(`Deleted “${editing.name}”`);
      closeEditor();
      await library.reload();
    } catch (e) {
      if (!e.redirecting) byId('collection-error').textContent = e.message;
    }
  }

  byId('collection-cancel').addEventListener('click', closeEditor);
  byId('collection-form').addEventListener('submit', saveCollection);
  byId('collection-delete').addEventListener('click', deleteCollection);
  let findDebounce = 0;
  byId('collection-find').addEventListener('input', () => {
    clearTimeout(findDebounce);
    findDebounce = setTimeout(findTitles, 250);
  });
  byId('collection-find').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      clearTimeout(findDebounce);
      findTitles();
    }
  });
  return openEditor;
}
