// ignorePlurals: the singular and plural forms of an English word, so that
// "talk" finds "talks" and the other way round.

const IRREGULAR: Record<string, string> = {
  man: 'men', woman: 'women', child: 'children', person: 'people', mouse: 'mice', goose: 'geese',
  foot: 'feet', tooth: 'teeth', ox: 'oxen', leaf: 'leaves', life: 'lives', knife: 'knives', wife: 'wives',
  half: 'halves', wolf: 'wolves', shelf: 'shelves', thief: 'thieves', criterion: 'criteria', datum: 'data',
  analysis: 'analyses', crisis: 'crises', thesis: 'theses', phenomenon: 'phenomena',
};
/** The irregular English plurals, singular → plural (the standard plurals dictionary lists them). */
export const IRREGULAR_PLURALS: Readonly<Record<string, string>> = IRREGULAR;
const SINGULAR_OF = Object.fromEntries(Object.entries(IRREGULAR).map(([s, p]) => [p, s]));
const VOWELS = /[aeiou]/;

/** Other forms of `word` (lower case, folded): its plural, or its singular(s). */
export function pluralForms(word: string): string[] {
  if (word.length < 2 || /\d/.test(word)) return [];
  if (IRREGULAR[word]) return [IRREGULAR[word]];
  if (SINGULAR_OF[word]) return [SINGULAR_OF[word]];
  const forms = new Set<string>();
  if (word.endsWith('ies') && word.length > 3) forms.add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es') && /(s|x|z|ch|sh)es$/.test(word)) forms.add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 2) forms.add(word.slice(0, -1));
  if (forms.size === 0) {
    if (/[^aeiou]y$/.test(word)) forms.add(`${word.slice(0, -1)}ies`);
    else if (/(s|x|z|ch|sh)$/.test(word)) forms.add(`${word}es`);
    else forms.add(`${word}s`);
  }
  forms.delete(word);
  return [...forms].filter((f) => VOWELS.test(f) || f.length > 2);
}

/** ignorePlurals: true, or a list of languages (English rules apply when "en" is in it). */
export function pluralsEnabled(setting: unknown): boolean {
  return setting === true || (Array.isArray(setting) && setting.includes('en'));
}
