// Geo search on the airports fixture (3,282 records with _geoloc and
// links_count): around a point (radius, "all", automatic, minimum,
// precision buckets), bounding boxes, polygons, their precedence, ranking
// info, records with several points, and invalid parameters.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, fixture, haversine, ids, openEngine, searcher, sorted, type Send } from './helpers.js';

type Airport = { objectID: string; name: string; city: string; country: string; iata_code: string; links_count: number; _geoloc: { lat: number; lng: number } };

let send: Send;
let airports: Airport[];
const PARIS = { lat: 48.8566, lng: 2.3522 };
const AROUND = `${PARIS.lat},${PARIS.lng}`;

beforeAll(async () => {
  const opened = await openEngine();
  send = opened.send;
  airports = fixture<Airport[]>('airports.json');
  const client = opened.engine.client();
  await client.setSettings({
    indexName: 'airports',
    indexSettings: {
      searchableAttributes: ['name', 'city', 'country', 'iata_code'],
      customRanking: ['desc(links_count)'],
      attributesForFaceting: ['country'],
    },
  });
  await client.saveObjects({ indexName: 'airports', objects: airports });
  await client.saveObjects({
    indexName: 'places',
    objects: [
      { objectID: 'chain', name: 'chain', _geoloc: [{ lat: 48.8566, lng: 2.3522 }, { lat: 40.7128, lng: -74.006 }] },
      { objectID: 'paris', name: 'paris', _geoloc: { lat: 48.86, lng: 2.35 } },
      { objectID: 'nyc', name: 'nyc', _geoloc: { lat: 40.71, lng: -74.0 } },
      { objectID: 'nowhere', name: 'nowhere' },
    ],
  });
  await opened.engine.waitForTasks();
});

const search = (params: Record<string, unknown>, index?: string) => searcher(send, 'airports')(params, index);

const distanceTo = (a: Airport, from = PARIS) => haversine(from.lat, from.lng, a._geoloc.lat, a._geoloc.lng);
const byId = () => new Map(airports.map((a) => [a.objectID, a]));

/** objectIDs certainly inside / certainly outside a radius (records within 0.5% of the edge are left out). */
function aroundSets(radius: number, from = PARIS) {
  const inside = airports.filter((a) => distanceTo(a, from) <= radius * 0.995).map((a) => a.objectID);
  const outside = airports.filter((a) => distanceTo(a, from) > radius * 1.005).map((a) => a.objectID);
  return { inside, outside };
}

function insideBox(a: Airport, [lat1, lng1, lat2, lng2]: number[]): boolean {
  const { lat, lng } = a._geoloc;
  return lat >= Math.min(lat1, lat2) && lat <= Math.max(lat1, lat2) && lng >= Math.min(lng1, lng2) && lng <= Math.max(lng1, lng2);
}

function insidePolygon(a: Airport, polygon: number[]): boolean {
  const { lat, lng } = a._geoloc;
  let inside = false;
  for (let i = 0, j = polygon.length - 2; i < polygon.length; j = i, i += 2) {
    const [yi, xi, yj, xj] = [polygon[i], polygon[i + 1], polygon[j], polygon[j + 1]];
    if ((yi > lat) !== (yj > lat) && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('aroundLatLng with aroundRadius', () => {
  it('returns exactly the records within the radius (haversine)', async () => {
    const radius = 300000;
    const response = await search({ aroundLatLng: AROUND, aroundRadius: radius, hitsPerPage: 1000 });
    const { inside, outside } = aroundSets(radius);
    const got = new Set(ids(response));
    expect(inside.length).toBeGreaterThan(5);
    for (const id of inside) expect(got.has(id), id).toBe(true);
    for (const id of outside) expect(got.has(id), id).toBe(false);
    for (const hit of response.hits) expect(distanceTo(hit)).toBeLessThanOrEqual(radius * 1.005);
    expect(response.nbHits).toBe(response.hits.length);
  });

  it('the first hit is the nearest record', async () => {
    const nearest = [...airports].sort((a, b) => distanceTo(a) - distanceTo(b))[0];
    expect(nearest.iata_code).toBe('ORY');
    for (const params of [{ aroundRadius: 100000 }, { aroundRadius: 'all' }, {}]) {
      const response = await search({ aroundLatLng: AROUND, aroundPrecision: 1, hitsPerPage: 3, ...params });
      expect(response.hits[0].objectID).toBe(nearest.objectID);
    }
  });

  it('the geo criterion sorts an empty query by distance', async () => {
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 1000000, aroundPrecision: 1, hitsPerPage: 200 });
    const distances = response.hits.map((h: Airport) => distanceTo(h));
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThanOrEqual(distances[i - 1] - 10);
  });

  it('works with "lat, lng" (space after the comma) and in a params string', async () => {
    const spaced = await search({ aroundLatLng: `${PARIS.lat}, ${PARIS.lng}`, aroundRadius: 100000 });
    const params = await search({ params: `aroundLatLng=${encodeURIComponent(AROUND)}&aroundRadius=100000` });
    const plain = await search({ aroundLatLng: AROUND, aroundRadius: 100000 });
    expect(sorted(ids(spaced))).toEqual(sorted(ids(plain)));
    expect(sorted(ids(params))).toEqual(sorted(ids(plain)));
    expect(sorted(ids(plain))).toEqual(sorted(aroundSets(100000).inside));
  });

  it('ANDs with filters', async () => {
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 500000, filters: 'country:France', hitsPerPage: 1000 });
    const expected = airports.filter((a) => a.country === 'France' && distanceTo(a) <= 500000 * 0.995).map((a) => a.objectID);
    const got = new Set(ids(response));
    for (const id of expected) expect(got.has(id)).toBe(true);
    for (const hit of response.hits) expect(hit.country).toBe('France');
  });
});

describe('aroundRadius "all"', () => {
  it('returns every record with a _geoloc, sorted by distance', async () => {
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 'all', aroundPrecision: 1, hitsPerPage: 50 });
    expect(response.nbHits).toBe(airports.length);
    const expected = [...airports].sort((a, b) => distanceTo(a) - distanceTo(b)).slice(0, 50).map((a) => distanceTo(a));
    const got = response.hits.map((h: Airport) => distanceTo(h));
    got.forEach((d: number, i: number) => expect(d).toBeCloseTo(expected[i], -1));
  });

  it('leaves out records without _geoloc', async () => {
    const response = await search({ aroundLatLng: '40.7,-74.0', aroundRadius: 'all' }, 'places');
    expect(sorted(ids(response))).toEqual(['chain', 'nyc', 'paris']);
    expect(response.nbHits).toBe(3);
  });
});

describe('automatic radius and minimumAroundRadius', () => {
  it('without aroundRadius: a disk around the point, sorted by distance', async () => {
    const response = await search({ aroundLatLng: AROUND, hitsPerPage: 1000, aroundPrecision: 1 });
    expect(response.nbHits).toBeGreaterThan(0);
    expect(response.nbHits).toBeLessThan(airports.length);
    expect(response.hits.length).toBe(Math.min(response.nbHits, 1000));
    const returned = new Set(ids(response));
    const farthestReturned = Math.max(...response.hits.map((h: Airport) => distanceTo(h)));
    const nearestLeftOut = Math.min(...airports.filter((a) => !returned.has(a.objectID)).map((a) => distanceTo(a)));
    if (response.hits.length === response.nbHits) expect(farthestReturned).toBeLessThanOrEqual(nearestLeftOut + 1);
    const distances = response.hits.map((h: Airport) => distanceTo(h));
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThanOrEqual(distances[i - 1] - 10);
  });

  it('minimumAroundRadius widens the automatic radius', async () => {
    const automatic = await search({ aroundLatLng: AROUND, hitsPerPage: 0 });
    const everything = await search({ aroundLatLng: AROUND, minimumAroundRadius: 20100000, hitsPerPage: 0 });
    expect(everything.nbHits).toBe(airports.length);
    expect(everything.nbHits).toBeGreaterThan(automatic.nbHits);
  });

  it('the records within minimumAroundRadius are always returned', async () => {
    const radius = 3000000;
    const response = await search({ aroundLatLng: AROUND, minimumAroundRadius: radius, hitsPerPage: 0 });
    expect(response.nbHits).toBeGreaterThanOrEqual(aroundSets(radius).inside.length);
  });

  it('the answer carries automaticRadius (metres, a string): the radius used; none with aroundRadius', async () => {
    const response = await search({ aroundLatLng: AROUND, hitsPerPage: 1000, attributesToRetrieve: ['_geoloc'] });
    expect(typeof response.automaticRadius).toBe('string');
    const radius = Number(response.automaticRadius);
    const nearest = airports.map((a) => distanceTo(a)).sort((a, b) => a - b);
    expect(radius).toBeGreaterThanOrEqual(nearest[999] - 100);
    expect(radius).toBeLessThanOrEqual(nearest[999] + 100);
    for (const hit of response.hits) expect(distanceTo(hit)).toBeLessThanOrEqual(radius + 100);
    // exactly the 1,000 nearest: the radius reaches the 1,000th, whose distance the ranking info gives
    const ranked = await search({ aroundLatLng: AROUND, hitsPerPage: 1000, aroundPrecision: 1, getRankingInfo: true });
    expect(ranked.nbHits).toBe(1000);
    expect(Math.abs(ranked.hits[999]._rankingInfo.geoDistance - radius)).toBeLessThanOrEqual(1);
    const widened = await search({ aroundLatLng: AROUND, minimumAroundRadius: 20100000, hitsPerPage: 0 });
    expect(widened.automaticRadius).toBe('20100000');
    expect((await search({ aroundLatLng: AROUND, aroundRadius: 100000, hitsPerPage: 0 })).automaticRadius).toBeUndefined();
    expect((await search({ aroundLatLng: AROUND, aroundRadius: 'all', hitsPerPage: 0 })).automaticRadius).toBeUndefined();
    // fewer records than the density needs: the radius reaches the farthest one
    const few = await search({ aroundLatLng: AROUND, hitsPerPage: 0 }, 'places');
    expect(few.nbHits).toBe(3);
    expect(Number(few.automaticRadius)).toBeGreaterThan(5000000);
  });

  it('minimumAroundRadius is ignored when aroundRadius is set', async () => {
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 100000, minimumAroundRadius: 10000000, hitsPerPage: 1000 });
    expect(sorted(ids(response))).toEqual(sorted(aroundSets(100000).inside));
  });
});

describe('aroundPrecision', () => {
  it('buckets distances; ties within a bucket follow customRanking desc(links_count)', async () => {
    const precision = 50000;
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 400000, aroundPrecision: precision, hitsPerPage: 1000, getRankingInfo: true });
    const hits: Airport[] = response.hits;
    expect(hits.length).toBeGreaterThan(10);
    const bucketOf = (a: Airport) => Math.floor(distanceTo(a) / precision);
    for (let i = 1; i < hits.length; i++) {
      const [prev, cur] = [hits[i - 1], hits[i]];
      expect(bucketOf(cur)).toBeGreaterThanOrEqual(bucketOf(prev));
      if (bucketOf(cur) === bucketOf(prev)) expect(cur.links_count).toBeLessThanOrEqual(prev.links_count);
    }
    // Orly is nearer, but Charles de Gaulle (more links) shares its 0-50 km bucket and comes first
    expect(hits[0].iata_code).toBe('CDG');
    expect(hits[1].iata_code).toBe('ORY');
    for (const hit of response.hits) expect(hit._rankingInfo.geoPrecision).toBe(precision);
  });

  it('a precision below 10 metres counts as 10, in ranges too', async () => {
    const info = async (aroundPrecision: unknown) =>
      (await search({ aroundLatLng: AROUND, aroundRadius: 100000, aroundPrecision, hitsPerPage: 3, getRankingInfo: true })).hits
        .map((h: any) => h._rankingInfo.geoPrecision);
    expect(await info(1)).toEqual([10, 10, 10]);
    expect(await info(0)).toEqual([10, 10, 10]);
    expect(await info([{ from: 0, value: 2 }])).toEqual([10, 10, 10]);
    expect(await info(25)).toEqual([25, 25, 25]);
  });

  it('with precision 1 the nearest comes first', async () => {
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 100000, aroundPrecision: 1, hitsPerPage: 2 });
    expect(response.hits.map((h: Airport) => h.iata_code)).toEqual(['ORY', 'CDG']);
  });

  it('ranges [{from, value}]: nearer records never rank after farther ones', async () => {
    // 0-100 km: 10 m precision; beyond 100 km: 400 km precision
    const aroundPrecision = [{ from: 0, value: 10 }, { from: 100000, value: 400000 }];
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 500000, aroundPrecision, hitsPerPage: 1000 });
    const hits: Airport[] = response.hits;
    const near = hits.filter((h) => distanceTo(h) < 99000);
    const far = hits.filter((h) => distanceTo(h) > 101000);
    expect(near.length).toBeGreaterThan(1);
    expect(far.length).toBeGreaterThan(10);
    // the near ones first, by distance
    expect(hits.slice(0, near.length).map((h) => h.objectID)).toEqual([...near].sort((a, b) => distanceTo(a) - distanceTo(b)).map((h) => h.objectID));
    // the far ones are grouped coarsely: not in plain distance order
    const farDistances = hits.slice(near.length).map((h) => distanceTo(h));
    expect(farDistances.some((d, i) => i > 0 && d < farDistances[i - 1])).toBe(true);
  });
});

describe('insideBoundingBox and insidePolygon', () => {
  const FRANCE_BOX = [46.0, 2.0, 50.0, 6.0];
  const NY_BOX = [40.0, -75.0, 42.0, -72.0];

  it('one box: exactly the records inside', async () => {
    const response = await search({ insideBoundingBox: [FRANCE_BOX], hitsPerPage: 1000 });
    const expected = airports.filter((a) => insideBox(a, FRANCE_BOX)).map((a) => a.objectID);
    expect(expected.length).toBeGreaterThan(2);
    expect(sorted(ids(response))).toEqual(sorted(expected));
  });

  it('several boxes: the union', async () => {
    const response = await search({ insideBoundingBox: [FRANCE_BOX, NY_BOX], hitsPerPage: 1000 });
    const expected = airports.filter((a) => insideBox(a, FRANCE_BOX) || insideBox(a, NY_BOX)).map((a) => a.objectID);
    expect(sorted(ids(response))).toEqual(sorted(expected));
    expect(expected.length).toBeGreaterThan(airports.filter((a) => insideBox(a, FRANCE_BOX)).length);
  });

  it('a box as a comma string and in a params string', async () => {
    const expected = sorted(airports.filter((a) => insideBox(a, FRANCE_BOX)).map((a) => a.objectID));
    expect(sorted(ids(await search({ insideBoundingBox: FRANCE_BOX.join(','), hitsPerPage: 1000 })))).toEqual(expected);
    expect(sorted(ids(await search({ params: `insideBoundingBox=${FRANCE_BOX.join(',')}&hitsPerPage=1000` })))).toEqual(expected);
    expect(sorted(ids(await search({ params: `insideBoundingBox=${encodeURIComponent(JSON.stringify([FRANCE_BOX]))}&hitsPerPage=1000` })))).toEqual(expected);
  });

  it('a triangle', async () => {
    const triangle = [46.0, 2.0, 50.0, 2.0, 48.0, 8.0];
    const response = await search({ insidePolygon: [triangle], hitsPerPage: 1000 });
    const expected = airports.filter((a) => insidePolygon(a, triangle)).map((a) => a.objectID);
    expect(expected.length).toBeGreaterThan(1);
    expect(sorted(ids(response))).toEqual(sorted(expected));
    // a box around the triangle holds more
    expect(airports.filter((a) => insideBox(a, [46, 2, 50, 8])).length).toBeGreaterThan(expected.length);
  });

  it('a box wins over a polygon, both win over aroundLatLng', async () => {
    const triangle = [46.0, 2.0, 50.0, 2.0, 48.0, 8.0];
    const box = sorted(airports.filter((a) => insideBox(a, NY_BOX)).map((a) => a.objectID));
    const polygon = sorted(airports.filter((a) => insidePolygon(a, triangle)).map((a) => a.objectID));
    expect(sorted(ids(await search({ insideBoundingBox: [NY_BOX], insidePolygon: [triangle], hitsPerPage: 1000 })))).toEqual(box);
    expect(sorted(ids(await search({ insideBoundingBox: [NY_BOX], aroundLatLng: AROUND, aroundRadius: 50000, hitsPerPage: 1000 })))).toEqual(box);
    expect(sorted(ids(await search({ insidePolygon: [triangle], aroundLatLng: '40.7,-74.0', aroundRadius: 50000, hitsPerPage: 1000 })))).toEqual(polygon);
  });

  it('records without _geoloc are outside every box', async () => {
    const response = await search({ insideBoundingBox: [[-90, -180, 90, 180]] }, 'places');
    expect(sorted(ids(response))).toEqual(['chain', 'nyc', 'paris']);
  });
});

describe('ranking info', () => {
  it('geoDistance is the haversine distance to the metre, from a metre to the antipode; aroundRadius reaches to the metre', async () => {
    const center = { lat: 45.5, lng: 10.25 };
    const offsets = [0, 1e-5, 3e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 60];
    const points = offsets.flatMap((o, i) => [
      { objectID: `n${i}`, _geoloc: { lat: center.lat + o / 2, lng: center.lng + o } },
      { objectID: `s${i}`, _geoloc: { lat: center.lat - o, lng: center.lng - o / 3 } },
    ]);
    points.push({ objectID: 'antipode', _geoloc: { lat: -center.lat, lng: center.lng - 180 } });
    const opened = await openEngine();
    await opened.engine.client().saveObjects({ indexName: 'metres', objects: points });
    await opened.engine.waitForTasks();
    const response = await searcher(opened.send, 'metres')({
      aroundLatLng: `${center.lat},${center.lng}`, aroundRadius: 'all', aroundPrecision: 1, getRankingInfo: true, hitsPerPage: 100,
    });
    const at = new Map(points.map((p) => [p.objectID, p._geoloc]));
    expect(response.hits.length).toBe(points.length);
    for (const hit of response.hits as Array<{ objectID: string; _rankingInfo: { geoDistance: number } }>) {
      const p = at.get(hit.objectID)!;
      expect(hit._rankingInfo.geoDistance).toBe(Math.round(haversine(center.lat, center.lng, p.lat, p.lng)));
    }
    // an aroundRadius a metre past a point's distance takes it in, a metre short leaves it out
    const distances = points.map((p) => haversine(center.lat, center.lng, p._geoloc.lat, p._geoloc.lng));
    for (const d of distances.filter((x) => x > 2 && x < 19_000_000)) {
      for (const radius of [Math.floor(d) - 1, Math.ceil(d) + 1]) {
        const within = await searcher(opened.send, 'metres')({ aroundLatLng: `${center.lat},${center.lng}`, aroundRadius: radius, hitsPerPage: 0 });
        expect(within.nbHits).toBe(distances.filter((x) => x <= radius).length);
      }
    }
    await opened.engine.close();
  });

  it('matchedGeoLocation: the record point and its distance in metres; geoDistance grows along the hits', async () => {
    const airportsById = byId();
    const response = await search({ aroundLatLng: AROUND, aroundRadius: 300000, aroundPrecision: 1, getRankingInfo: true, hitsPerPage: 20 });
    expect(response.hits.length).toBeGreaterThan(3);
    for (const hit of response.hits) {
      const airport = airportsById.get(hit.objectID)!;
      const d = distanceTo(airport);
      const info = hit._rankingInfo;
      expect(info.matchedGeoLocation.lat).toBeCloseTo(airport._geoloc.lat, 3);
      expect(info.matchedGeoLocation.lng).toBeCloseTo(airport._geoloc.lng, 3);
      expect(Math.abs(info.matchedGeoLocation.distance - d)).toBeLessThanOrEqual(Math.max(2, d * 0.002));
      expect(Number.isInteger(info.matchedGeoLocation.distance)).toBe(true);
      expect(Number.isInteger(info.geoDistance)).toBe(true);
      expect(info.geoDistance).toBeGreaterThanOrEqual(0);
      expect(info.geoPrecision).toBeGreaterThanOrEqual(1);
    }
    const geoDistances = response.hits.map((h: any) => h._rankingInfo.geoDistance);
    for (let i = 1; i < geoDistances.length; i++) expect(geoDistances[i]).toBeGreaterThanOrEqual(geoDistances[i - 1]);
  });

  it('no matchedGeoLocation without a geo query', async () => {
    const response = await search({ query: 'paris', getRankingInfo: true });
    expect(response.hits.length).toBeGreaterThan(0);
    expect(response.hits[0]._rankingInfo).not.toHaveProperty('matchedGeoLocation');
  });

  it('with a text query the geo criterion ranks right after typos', async () => {
    const response = await search({ query: 'international', aroundLatLng: AROUND, aroundRadius: 'all', aroundPrecision: 1, getRankingInfo: true, hitsPerPage: 200 });
    expect(response.hits.length).toBeGreaterThan(20);
    const hits = response.hits;
    for (let i = 1; i < hits.length; i++) {
      const [a, b] = [hits[i - 1]._rankingInfo, hits[i]._rankingInfo];
      expect(b.nbTypos).toBeGreaterThanOrEqual(a.nbTypos);
      if (a.nbTypos === b.nbTypos) expect(b.matchedGeoLocation.distance).toBeGreaterThanOrEqual(a.matchedGeoLocation.distance - 10);
    }
  });
});

describe('records with several _geoloc points', () => {
  it('match through their nearest point, reported in matchedGeoLocation', async () => {
    const ny = await search({ aroundLatLng: '40.7,-74.0', aroundRadius: 50000, aroundPrecision: 1, getRankingInfo: true }, 'places');
    expect(sorted(ids(ny))).toEqual(['chain', 'nyc']);
    const chainNy = ny.hits.find((h: any) => h.objectID === 'chain');
    expect(chainNy._rankingInfo.matchedGeoLocation).toMatchObject({ lat: 40.7128, lng: -74.006 });
    expect(chainNy._rankingInfo.matchedGeoLocation.distance).toBe(Math.round(haversine(40.7, -74.0, 40.7128, -74.006)));

    const paris = await search({ aroundLatLng: '48.85,2.35', aroundRadius: 50000, aroundPrecision: 1, getRankingInfo: true }, 'places');
    expect(sorted(ids(paris))).toEqual(['chain', 'paris']);
    expect(paris.hits[0].objectID).toBe('chain');
    expect(paris.hits[0]._rankingInfo.matchedGeoLocation).toMatchObject({ lat: 48.8566, lng: 2.3522 });
  });

  it('inside a box when any point is inside', async () => {
    expect(sorted(ids(await search({ insideBoundingBox: [[40, -75, 41, -73]] }, 'places')))).toEqual(['chain', 'nyc']);
    expect(sorted(ids(await search({ insideBoundingBox: [[48, 2, 49, 3]] }, 'places')))).toEqual(['chain', 'paris']);
    expect(sorted(ids(await search({ insidePolygon: [[40, -75, 41, -75, 40.5, -73]] }, 'places')))).toEqual(['chain', 'nyc']);
  });
});

describe('invalid geo parameters are 400', () => {
  const bad = async (params: Record<string, unknown>, message?: RegExp) =>
    expectError(await send('POST', '/1/indexes/airports/query', params), 400, message);

  it('aroundLatLng', async () => {
    await bad({ aroundLatLng: 'abc' }, /aroundLatLng/);
    await bad({ aroundLatLng: '48.85' }, /aroundLatLng/);
    await bad({ aroundLatLng: '95,10' }, /aroundLatLng/);
    await bad({ aroundLatLng: '10,200' }, /aroundLatLng/);
    await bad({ aroundLatLng: '1,2,3' }, /aroundLatLng/);
    await bad({ params: 'aroundLatLng=north' }, /aroundLatLng/);
  });

  it('aroundRadius', async () => {
    await bad({ aroundLatLng: AROUND, aroundRadius: 'far' }, /aroundRadius/);
    await bad({ aroundLatLng: AROUND, aroundRadius: 0 }, /aroundRadius/);
  });

  it('aroundPrecision', async () => {
    await bad({ aroundLatLng: AROUND, aroundPrecision: [] }, /aroundPrecision/);
    await bad({ aroundLatLng: AROUND, aroundPrecision: [{ from: 0 }] }, /aroundPrecision/);
    await bad({ aroundLatLng: AROUND, aroundPrecision: 'fine' }, /aroundPrecision/);
  });

  it('insideBoundingBox and insidePolygon', async () => {
    await bad({ insideBoundingBox: [[46, 2, 50]] }, /insideBoundingBox/);
    await bad({ insideBoundingBox: 'a,b,c,d' }, /insideBoundingBox/);
    await bad({ insidePolygon: [[46, 2, 50, 2]] }, /insidePolygon/);
    await bad({ insidePolygon: [[46, 2, 50, 2, 48]] }, /insidePolygon/);
  });
});

describe('the automatic radius after removals', () => {
  it('counts the live records only: removed ones no longer narrow it', async () => {
    const { engine, send: own } = await openEngine();
    const client = engine.client();
    // 1,500 points north of PARIS, one every ~1.1 km; the 600 nearest are then deleted
    const points = Array.from({ length: 1_500 }, (_, i) => ({ objectID: `p${i}`, _geoloc: { lat: PARIS.lat + 0.01 * (i + 1), lng: PARIS.lng } }));
    await client.saveObjects({ indexName: 'thinned', objects: points, waitForTasks: true });
    const around = () => searcher(own, 'thinned')({ aroundLatLng: `${PARIS.lat},${PARIS.lng}`, hitsPerPage: 0 });
    expect((await around()).nbHits).toBe(1_000);
    await own('POST', '/1/indexes/thinned/batch', { requests: points.slice(0, 600).map(({ objectID }) => ({ action: 'deleteObject', body: { objectID } })) });
    await engine.waitForTasks();
    const thinned = await around();
    expect(thinned.nbHits).toBe(900);
    const farthest = points.at(-1)!._geoloc;
    expect(Math.abs(Number(thinned.automaticRadius) - haversine(PARIS.lat, PARIS.lng, farthest.lat, farthest.lng))).toBeLessThanOrEqual(1);
    await engine.close();
  });
});

describe('the points of records written after the first searches', () => {
  it('a geo query sees every live record, whether it was written before or after the searches without geo', async () => {
    const { engine, send: own } = await openEngine();
    const client = engine.client();
    const write = (objects: Array<Record<string, unknown>>) => client.saveObjects({ indexName: 'late', objects, waitForTasks: true });
    const near = async () => ids(await searcher(own, 'late')({ query: '', aroundLatLng: AROUND, aroundRadius: 50_000 }));
    await write([{ objectID: 'early', name: 'cafe', _geoloc: PARIS }]);
    expect((await searcher(own, 'late')({ query: 'cafe' })).nbHits).toBe(1); // no geo parameter
    await write([{ objectID: 'late', name: 'cafe', _geoloc: { lat: 48.85, lng: 2.34 } }, { objectID: 'far', name: 'cafe', _geoloc: { lat: 40.71, lng: -74.0 } }]);
    expect(sorted(await near())).toEqual(['early', 'late']);
    await write([{ objectID: 'early', name: 'cafe', _geoloc: { lat: 40.7, lng: -74.0 } }]); // moved away
    await client.deleteObject({ indexName: 'late', objectID: 'late' });
    await engine.waitForTasks();
    await write([{ objectID: 'newest', name: 'cafe', _geoloc: { lat: 48.9, lng: 2.4 } }]);
    expect(sorted(await near())).toEqual(['newest']);
    await engine.close();
  });
});
