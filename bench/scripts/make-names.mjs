// Writes bench/scripts/names.json: per language, the names of the world's
// regions, languages and currencies as CLDR's translators wrote them in that
// language (Intl.DisplayNames), ~630 real names a language. Written once
// and committed, so that the workload does not change with Node's ICU.
//
//   node bench/scripts/make-names.mjs
import { writeFileSync } from 'node:fs';

export const LANGUAGES = ['th', 'lo', 'km', 'my', 'zh', 'ja', 'ko', 'ar', 'he', 'hi', 'ru', 'el', 'ka', 'am', 'vi', 'de', 'fr'];

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PAIRS = [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b));

/** @param {string} language @returns {Array<{ objectID: string, name: string }>} */
function namesIn(language) {
  /** @param {Intl.DisplayNamesType} type */
  const names = (type) => new Intl.DisplayNames(language, { type, fallback: 'none' });
  const regions = names('region'), languages = names('language'), currencies = names('currency');
  const english = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
  const out = [];
  for (const code of PAIRS) {
    const name = regions.of(code);
    // a region the language has no name of its own for falls back to English in some locales
    if (name && (name !== english.of(code) || language === 'de' || language === 'fr')) out.push({ objectID: `region-${code}`, name });
  }
  for (const code of PAIRS.map((p) => p.toLowerCase())) {
    const name = languages.of(code);
    if (name) out.push({ objectID: `language-${code}`, name });
  }
  for (const code of Intl.supportedValuesOf('currency')) {
    const name = currencies.of(code);
    if (name) out.push({ objectID: `currency-${code}`, name });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = Object.fromEntries(LANGUAGES.map((language) => [language, namesIn(language)]));
  writeFileSync(new URL('names.json', import.meta.url), `${JSON.stringify({ icu: process.versions.icu, node: process.version, corpus })}\n`);
  console.log(Object.entries(corpus).map(([l, r]) => `${l} ${r.length}`).join(', '));
}
