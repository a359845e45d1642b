import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/util/errors.js';
import {
  documentText, maskSecret, mergeEmbedderSecrets, parseEmbedders, redactEmbedders, sameVectorSpace, textHash,
} from '../../src/vectors/embedder-settings.js';

const rest = { source: 'rest', url: 'http://127.0.0.1:11434/v1/embeddings', model: 'nomic-embed-text', dimensions: 768 };
const KEY = 'sk-proj-0123456789abcdef';

/** The 400 parseEmbedders throws for `value`. */
function refusal(value: unknown): ApiError {
  try {
    parseEmbedders(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return error as ApiError;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('parseEmbedders', () => {
  it('takes each source with its fields, and null as no embedder', () => {
    const embedders = {
      default: { source: 'userProvided', dimensions: 384 },
      openai: { ...rest, apiKey: KEY, documentTemplate: '{{doc.name}}. {{ doc.description }}', documentTemplateMaxBytes: 1000, headers: { 'x-team': 'search' } },
      local: { source: 'function', name: 'minilm', dimensions: 384 },
    };
    expect(parseEmbedders(embedders)).toEqual(embedders);
    expect(parseEmbedders(null)).toEqual({});
  });

  it('leaves out optional fields sent as null', () => {
    expect(parseEmbedders({ e: { ...rest, apiKey: null, documentTemplate: null } })).toEqual({ e: rest });
  });

  it.each([
    [{ openai: { ...rest, dimensions: 0 } }, '"embedders.openai.dimensions": expected an integer from 1 to 4096, not 0'],
    [{ openai: { ...rest, dimensions: 4097 } }, '"embedders.openai.dimensions"'],
    [{ openai: { ...rest, dimensions: '768' } }, '"embedders.openai.dimensions": expected an integer from 1 to 4096, not "768"'],
    [{ openai: { ...rest, dimensions: undefined } }, '"embedders.openai.dimensions"'],
    [{ u: { source: 'userProvided', dimensions: 1.5 } }, '"embedders.u.dimensions"'],
    [{ openai: { ...rest, url: 'ftp://host/embed' } }, '"embedders.openai.url": expected an http:// or https:// URL'],
    [{ openai: { ...rest, url: 'not a url' } }, '"embedders.openai.url"'],
    [{ openai: { ...rest, url: undefined } }, '"embedders.openai.url"'],
    [{ openai: { ...rest, url: 'https://user:pass@host/v1/embeddings' } }, '"embedders.openai.url": expected a URL without credentials'],
    [{ openai: { ...rest, model: '' } }, '"embedders.openai.model": expected a non-empty string'],
    [{ openai: { ...rest, apiKey: 42 } }, '"embedders.openai.apiKey"'],
    [{ openai: { ...rest, headers: ['a'] } }, '"embedders.openai.headers"'],
    [{ openai: { ...rest, headers: { 'x-a': 1 } } }, '"embedders.openai.headers.x-a": expected a string on one line'],
    [{ openai: { ...rest, headers: { 'x-a': 'b\r\nx-evil: 1' } } }, '"embedders.openai.headers.x-a"'],
    [{ openai: { ...rest, headers: { 'bad name': 'b' } } }, '"embedders.openai.headers"'],
    [{ openai: { ...rest, documentTemplate: '{{ name }}' } }, '"embedders.openai.documentTemplate": expected tags of the form {{doc.attribute}}, not {{ name }}'],
    [{ openai: { ...rest, documentTemplate: 3 } }, '"embedders.openai.documentTemplate": expected a string'],
    [{ openai: { ...rest, documentTemplateMaxBytes: 0 } }, '"embedders.openai.documentTemplateMaxBytes"'],
    [{ f: { source: 'function', dimensions: 3 } }, '"embedders.f.name": expected a non-empty string'],
    [{ x: { source: 'openAi', dimensions: 3 } }, '"embedders.x.source": expected one of "userProvided", "rest", "function"'],
    [{ x: { dimensions: 3 } }, '"embedders.x.source"'],
    [{ x: 'rest' }, '"embedders.x": expected an object with a "source"'],
    [[rest], '"embedders": expected an object of embedders by name'],
  ])('refuses %j naming the field', (value, message) => {
    expect(refusal(value).message).toContain(message);
  });

  it('refuses a field its source does not take, listing those it does', () => {
    expect(refusal({ u: { source: 'userProvided', dimensions: 3, url: 'http://x' } }).message)
      .toBe('Unknown field "embedders.u.url": a "userProvided" embedder takes source, dimensions');
    expect(refusal({ f: { source: 'function', name: 'f', dimensions: 3, apiKey: 'k' } }).message).toContain('"embedders.f.apiKey"');
  });

  it.each(['', 'has space', 'a/b', 'x'.repeat(65), 'é'])('refuses the embedder name %j', (name) => {
    expect(refusal({ [name]: { source: 'userProvided', dimensions: 3 } }).message).toMatch(/^Invalid embedder name/);
  });
});

describe('secrets', () => {
  const stored = parseEmbedders({
    openai: { ...rest, apiKey: KEY, headers: { 'api-key': 'azure-0123456789abcdef', 'x-team': 'search' } },
    short: { ...rest, apiKey: 'abc123' },
    local: { source: 'userProvided', dimensions: 3 },
  });

  it('masks API keys and credential headers, and nothing else', () => {
    const shown = redactEmbedders(stored);
    expect(shown.openai).toEqual({ ...stored.openai, apiKey: 'sk-...', headers: { 'api-key': 'azu...', 'x-team': 'search' } });
    expect(shown.short).toEqual({ ...stored.short, apiKey: '...' });
    expect(shown.local).toEqual(stored.local);
    expect(JSON.stringify(shown)).not.toContain('0123456789');
    expect((stored.openai as { apiKey: string }).apiKey).toBe(KEY); // the stored settings are not changed
  });

  it('keeps the stored secret when the masked value is sent back', () => {
    const sentBack = parseEmbedders({ ...redactEmbedders(stored), openai: { ...redactEmbedders(stored).openai, model: 'other' } });
    const merged = mergeEmbedderSecrets(sentBack, stored);
    expect(merged.openai).toEqual({ ...stored.openai, model: 'other' });
    expect(merged.short).toEqual(stored.short);
  });

  it('takes a new secret, and a masked value for an embedder it had no secret for, as sent', () => {
    const next = parseEmbedders({
      openai: { ...rest, apiKey: 'sk-new-0123456789', headers: { 'API-KEY': 'azu...' } },
      fresh: { ...rest, apiKey: 'sk-...' },
    });
    const merged = mergeEmbedderSecrets(next, stored);
    expect(merged.openai).toEqual({ ...rest, apiKey: 'sk-new-0123456789', headers: { 'API-KEY': 'azure-0123456789abcdef' } });
    expect(merged.fresh).toEqual({ ...rest, apiKey: 'sk-...' });
  });

  it('shows 3 characters of a long secret only', () => {
    expect(maskSecret(KEY)).toBe('sk-...');
    expect(maskSecret('short')).toBe('...');
  });
});

describe('sameVectorSpace', () => {
  const [a] = Object.values(parseEmbedders({ a: { ...rest, apiKey: KEY, documentTemplate: '{{doc.a}}' } }));
  it('holds across a new key or template, not a new model, URL or dimensions', () => {
    expect(sameVectorSpace(a, { ...a, apiKey: 'other', documentTemplate: '{{doc.b}}' } as typeof a)).toBe(true);
    expect(sameVectorSpace(a, { ...a, model: 'other' } as typeof a)).toBe(false);
    expect(sameVectorSpace(a, { ...a, url: 'http://other/v1/embeddings' } as typeof a)).toBe(false);
    expect(sameVectorSpace(a, { ...a, dimensions: 3 })).toBe(false);
    expect(sameVectorSpace(a, { source: 'function', name: 'f', dimensions: 768 })).toBe(false);
  });
});

describe('documentText', () => {
  const record = {
    objectID: '42', name: 'Trail shoe', brand: { name: 'Acme', country: 'FR' }, tags: ['running', 'outdoor', ['x']],
    price: 99.5, inStock: true, nothing: null, _vectors: { default: [0.1] },
  };

  it('fills in a template: nested paths, arrays joined, absent values empty', () => {
    expect(documentText('{{doc.name}} by {{ doc.brand.name }} ({{doc.tags}}), {{doc.price}} {{doc.missing}}{{doc.brand.none}}', record, null))
      .toBe('Trail shoe by Acme (running, outdoor, x), 99.5');
    expect(documentText('{{doc.brand}}', record, null)).toBe('{"name":"Acme","country":"FR"}');
  });

  it('without a template, embeds every attribute in record order but objectID and _vectors', () => {
    expect(documentText(undefined, record, null)).toBe([
      'name: Trail shoe', 'brand: {"name":"Acme","country":"FR"}', 'tags: running, outdoor, x', 'price: 99.5', 'inStock: true',
    ].join('\n'));
  });

  it('without a template, embeds the searchable attributes in their order, nested ones by path', () => {
    expect(documentText(undefined, record, ['tags', 'brand.name', 'objectID', 'description']))
      .toBe('tags: running, outdoor, x\nbrand.name: Acme');
  });

  it('cuts the text to the byte budget at a word end, never inside a character', () => {
    const long = { text: 'word '.repeat(1000) };
    const cut = documentText('{{doc.text}}', long, null, 23);
    expect(cut).toBe('word word word word');
    const accents = documentText('{{doc.text}}', { text: 'ééééé' }, null, 5); // 2 bytes each: 2 whole ones
    expect(accents).toBe('éé');
    expect(documentText(undefined, long, null).length).toBeLessThanOrEqual(2000);
  });
});

describe('textHash', () => {
  it('is FNV-1a 64 of the UTF-8 bytes (the published test vectors)', () => {
    expect(textHash('')).toBe('cbf29ce484222325');
    expect(textHash('a')).toBe('af63dc4c8601ec8c');
    expect(textHash('foobar')).toBe('85944171f73967e8');
  });

  it('tells texts apart that differ by one character, and hashes all of Unicode', () => {
    const texts = ['name: Trail shoe', 'name: Trail shoes', 'name: trail shoe', 'é', 'e\u0301', '😀'];
    expect(new Set(texts.map(textHash)).size).toBe(texts.length);
    for (const text of texts) expect(textHash(text)).toMatch(/^[0-9a-f]{16}$/);
  });
});
