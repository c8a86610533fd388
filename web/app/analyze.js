// analyze.js: the analyzer of pkg/text (analyze.go) in JavaScript, for the
// page's own catalog search, so that what a person types there is read as
// the module reads instructions, titles and values: lower case, Latin
// accents and ligatures folded ("Pokémon" → "pokemon"), contractions and
// possessives, French elisions, plurals reduced, roman numerals as digits.
// testdata/text/analyze.json holds the cases both must agree on
// (web/test/analyze.test.mjs and pkg/text's TestAnalyzeVectors).

const ROMAN = { ii: '2', iii: '3', iv: '4', v: '5', vi: '6', vii: '7', viii: '8', ix: '9', x: '10', xi: '11', xii: '12', xiii: '13', xiv: '14', xv: '15' };

const FOLD = new Map();
for (const [to, from] of Object.entries({
  a: 'àáâãäåāăą', e: 'èéêëēėęě', i: 'ìíîïīįı', o: 'òóôõöøōő', u: 'ùúûüūůűų', n: 'ñńň', c: 'çćč', y: 'ýÿ', s: 'śšş', z: 'źżž', l: 'ł', r: 'ř', d: 'ď', t: 'ť', g: 'ğ',
})) for (const ch of from) FOLD.set(ch, to);
const WIDE = { 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'Æ': 'ae', 'Œ': 'oe' };

const CONTRACTIONS = [["can't", 'can not'], ["won't", 'will not'], ["n't", ' not'], ["'s", ''], ["'re", ' are'], ["'m", ' am'], ["'ve", ' have'], ["'d", ' would'], ["'ll", ' will']];
const ELIDED = new Set(['l', 'd', 'j', 'n', 's', 'c', 'm', 't', 'qu', 'dell', 'nell', 'all', 'dall', 'sull', 'un']);

/** norm normalizes one folded word (pkg/text.Norm). */
export function norm(w) {
  if (ROMAN[w]) return ROMAN[w];
  const n = w.length;
  if (n > 3 && w[n - 1] === 's' && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) {
    if (w[n - 2] >= '0' && w[n - 2] <= '9') return w;
    if (n > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
    return w.slice(0, -1);
  }
  return w;
}

// replaceAll applies the contractions left to right at each position, the
// first that matches winning, as Go's strings.Replacer does.
function contract(s) {
  let out = '';
  for (let i = 0; i < s.length;) {
    const hit = CONTRACTIONS.find(([from]) => s.startsWith(from, i));
    if (hit) { out += hit[1]; i += hit[0].length; } else { out += s[i]; i++; }
  }
  return out;
}

const letterOrDigit = /[\p{L}\p{N}]/u;
const mark = /\p{Mn}/u;

/** words returns the normalized words of s (pkg/text.AnalyzedWords). */
export function words(s) {
  const rs = [...contract(String(s).replaceAll('\u2019', "'").toLowerCase())];
  const out = [];
  let b = '';
  const flush = () => { if (b) { out.push(norm(b)); b = ''; } };
  const digit = (k) => k >= 0 && k < rs.length && rs[k] >= '0' && rs[k] <= '9';
  rs.forEach((r, k) => {
    if (letterOrDigit.test(r)) {
      b += WIDE[r] ?? FOLD.get(r) ?? r;
    } else if (mark.test(r)) {
      // a combining accent: dropped
    } else if (r === "'") {
      if (ELIDED.has(b)) flush();
    } else if (r === '.' && digit(k - 1) && digit(k + 1) && b) {
      b += '.';
    } else if (r === ',' && digit(k - 1) && digit(k + 1) && digit(k + 3) && !digit(k + 4) && b) {
      // a thousands separator: dropped
    } else {
      flush();
    }
  });
  flush();
  return out;
}

/** key is the normalized words of s joined by spaces (pkg/text.Key). */
export const key = (s) => words(s).join(' ');
