// A stand-in for Pagefind's pagefind.js, for search.js's unit tests (tests/js/search-page.test.js):
// the test puts the index in globalThis.fakePagefind, {words: {word: [{id, words}]}, data: {id: {...}}}.
// search(word) answers as Pagefind does: {results: [{id, words, data()}]}.
export async function init() {
  globalThis.fakePagefind.inits = (globalThis.fakePagefind.inits || 0) + 1;
}

export async function search(word) {
  const index = globalThis.fakePagefind;
  (index.asked = index.asked || []).push(word);
  if (index.fail) throw new Error(index.fail);
  const hits = index.words[word] || [];
  return {
    results: hits.map((hit) => ({
      id: hit.id, words: [...hit.words],
      data: async () => (index.gone && index.gone.includes(hit.id) ? null : index.data[hit.id]),
    })),
  };
}
